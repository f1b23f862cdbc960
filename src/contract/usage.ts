// The usage read models: `GET …/usage` (CompozyOS `SessionUsagePayload`, plus the
// October release's `context` reading) and `GET …/usage/turns` (October release). A
// daemon that predates either answers without `context`, or 404 for `/usage/turns`: a
// client then says the daemon reports no context instead of showing a number.

import { CompactionTrigger } from "./history";
import { Count, Id, Sequence, Timestamp, TurnId } from "./primitives";
import { z } from "./zod";

const CONTEXT_STATES = ["reported", "estimated_size", "unknown", "unavailable"] as const;
/** A state this client does not know reads as `unknown`: no figure is shown. */
const ContextState = z.catch(z.enum(CONTEXT_STATES), "unknown");

export const ContextReading = z.object({
  state: ContextState,
  used: z.optional(Count),
  size: z.optional(Count),
  ratio: z.optional(z.number().check(z.nonnegative())),
  size_source: z.optional(z.string()),
  sequence: z.optional(Sequence),
  reported_turn_id: z.optional(z.string()),
  reported_at: z.optional(Timestamp),
  cleared_by: z.optional(z.object({ compaction_id: Id, sequence: Sequence })),
});
export type ContextReading = z.infer<typeof ContextReading>;
export const DaemonContextReading = z.extend(ContextReading, {
  state: z.enum(CONTEXT_STATES),
  size_source: z.optional(z.enum(["agent", "catalog"])),
});

const Money = z.number().check(z.nonnegative());
/** Go `*int64` counters: absent or `null` when never reported. */
const Counter = z.nullish(Count);

const COST_STATUSES = ["actual", "estimated", "included", "unknown"] as const;
const COST_SOURCES = ["agent_reported", "catalog_config", "models_dev", "builtin", "none"] as const;

export const SessionUsage = z.object({
  context: z.optional(ContextReading),
  input_tokens: Counter,
  output_tokens: Counter,
  total_tokens: Counter,
  cache_read_tokens: Counter,
  cache_write_tokens: Counter,
  total_cost: z.nullish(Money),
  cost_currency: z.optional(z.string()),
  cost_status: z.optional(z.string()),
  cost_source: z.optional(z.string()),
  turn_count: Count,
});
export type SessionUsage = z.infer<typeof SessionUsage>;
export const DaemonSessionUsage = z.extend(SessionUsage, {
  context: DaemonContextReading,
  cost_status: z.optional(z.enum(COST_STATUSES)),
  cost_source: z.optional(z.enum(COST_SOURCES)),
});

export const UsageEnvelope = z.object({ usage: SessionUsage });
export type UsageEnvelope = z.infer<typeof UsageEnvelope>;
export const DaemonUsageEnvelope = z.object({ usage: DaemonSessionUsage });

/** One usage report of a turn (CompozyOS `UITokenUsagePayload`). */
export const TurnUsage = z.object({
  input_tokens: z.optional(Count),
  output_tokens: z.optional(Count),
  total_tokens: z.optional(Count),
  thought_tokens: z.optional(Count),
  cache_read_tokens: z.optional(Count),
  cache_write_tokens: z.optional(Count),
  context_used: z.optional(Count),
  context_size: z.optional(Count),
  cost_amount: z.optional(Money),
  cost_currency: z.optional(z.string()),
  timestamp: Timestamp,
  /**
   * Tideline: the ledger sequence of the usage report `context_used` came from (a turn's
   * figure is its last reading), so the chart can place it among compactions in report order.
   */
  context_sequence: z.optional(Sequence),
});
export type TurnUsage = z.infer<typeof TurnUsage>;

export const Turn = z.object({
  turn_id: Id,
  sequence: Sequence,
  usage: z.optional(TurnUsage),
});
export type Turn = z.infer<typeof Turn>;

/**
 * Tideline: a marker's "after" figure as the daemon derived it from the ledger (ADR 0121):
 * the first context reading reported after the compaction's terminal snapshot and before
 * the next compaction began. `sequence` is that usage report's ledger sequence.
 */
export const MarkerContextAfter = z.object({
  used: Count,
  size: z.optional(Count),
  sequence: Sequence,
  turn_id: z.optional(TurnId),
  reported_at: z.optional(Timestamp),
});

/**
 * One observed compaction (October release, "Usage markers"). `turn_id`, `sequence`, `at`
 * and `status` describe the newest snapshot of the id; the context figures come from the
 * fired event and are absent (not null) when unknown. `context_after` is Tideline's: `null`
 * when the daemon found no reading after it yet, absent from a daemon that does not derive
 * one (CompozyOS), whose client then derives it from the turns (`contextAfterOf`).
 */
export type MarkerContextAfter = z.infer<typeof MarkerContextAfter>;

export const CompactionMarker = z.object({
  turn_id: TurnId,
  sequence: Sequence,
  at: Timestamp,
  compaction_id: Id,
  trigger: CompactionTrigger,
  status: z.string().check(z.minLength(1)),
  context_used: z.optional(Count),
  context_size: z.optional(Count),
  context_after: z.optional(z.nullable(MarkerContextAfter)),
});
export type CompactionMarker = z.infer<typeof CompactionMarker>;

export const UsageTurns = z.object({
  turns: z.array(Turn),
  compactions: z.array(CompactionMarker),
});
export type UsageTurns = z.infer<typeof UsageTurns>;

/** A context figure read after a compaction: the "after" number of its marker. */
export type ContextAfter = { used: number; size?: number; sequence: number; turn_id?: string };

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/**
 * Where a report sits in report order: its time, then its sequence (a turn's start or a
 * marker's snapshot) to break a tie of equal timestamps. Compared as a pair.
 */
export type ReportKey = readonly [at: number, sequence: number];

export function isBefore(a: ReportKey, b: ReportKey): boolean {
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

/** A turn's figure in report order: its usage `timestamp`; undefined when it has none. */
export function turnReportKey(turn: Turn): ReportKey | undefined {
  if (turn.usage?.context_used === undefined) return undefined;
  const at = Date.parse(turn.usage.timestamp);
  return Number.isNaN(at) ? undefined : [at, turn.sequence];
}

export function markerReportKey(marker: CompactionMarker): ReportKey {
  return [Date.parse(marker.at), marker.sequence];
}

/**
 * The "after" figure of a marker (ADR 0121): the first context reading reported after the
 * compaction's terminal snapshot, in its own turn or a later one, and before the next
 * compaction began; never one taken after another compaction. The reference daemon
 * derives it from ledger sequences (`marker.context_after`, `null` when there is none yet).
 * From a daemon that does not, it is derived here in report order (`ReportKey`): a turn's
 * figure is its newest reading, stamped with its usage `timestamp`, and the next
 * compaction's `at` (its newest snapshot) is the nearest bound the wire gives. CompozyOS's
 * web takes the first reading of a later turn by turn order; this is stricter on purpose.
 */
export function contextAfterOf(
  marker: CompactionMarker,
  usageTurns: UsageTurns,
): ContextAfter | undefined {
  if (marker.context_after !== undefined) {
    const after = marker.context_after;
    if (after === null) return undefined;
    return {
      used: after.used,
      ...(after.size === undefined ? {} : { size: after.size }),
      sequence: after.sequence,
      ...(after.turn_id === undefined ? {} : { turn_id: after.turn_id }),
    };
  }
  if (!TERMINAL.has(marker.status)) return undefined;
  const ended = markerReportKey(marker);
  let next: ReportKey | undefined;
  for (const other of usageTurns.compactions) {
    const key = markerReportKey(other);
    if (isBefore(ended, key) && (next === undefined || isBefore(key, next))) next = key;
  }
  let best: { turn: Turn; key: ReportKey } | undefined;
  for (const turn of usageTurns.turns) {
    const key = turnReportKey(turn);
    if (key === undefined || !isBefore(ended, key)) continue;
    if (next !== undefined && !isBefore(key, next)) continue;
    if (best === undefined || isBefore(key, best.key)) best = { turn, key };
  }
  return best && afterFromTurn(best.turn);
}

/** A turn's reading as an "after" figure. */
export function afterFromTurn(turn: Turn): ContextAfter | undefined {
  const used = turn.usage?.context_used;
  if (used === undefined) return undefined;
  const size = turn.usage?.context_size;
  return {
    used,
    ...(size === undefined ? {} : { size }),
    sequence: turn.sequence,
    turn_id: turn.turn_id,
  };
}
