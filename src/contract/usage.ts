// The usage read models: `GET …/usage` (CompozyOS `SessionUsagePayload`, plus the
// October release's `context` reading) and `GET …/usage/turns` (October release). A
// daemon that predates either answers without `context`, or 404 for `/usage/turns`: a
// client then says the daemon reports no context instead of showing a number.
import { z } from "zod";
import { CompactionTrigger } from "./history";
import { Count, Id, Sequence, Timestamp, TurnId } from "./primitives";

const CONTEXT_STATES = ["reported", "estimated_size", "unknown", "unavailable"] as const;
/** A state this client does not know reads as `unknown`: no figure is shown. */
const ContextState = z.enum(CONTEXT_STATES).catch("unknown");

export const ContextReading = z.object({
  state: ContextState,
  used: Count.optional(),
  size: Count.optional(),
  ratio: z.number().nonnegative().optional(),
  size_source: z.string().optional(),
  sequence: Sequence.optional(),
  reported_turn_id: z.string().optional(),
  reported_at: Timestamp.optional(),
  cleared_by: z.object({ compaction_id: Id, sequence: Sequence }).optional(),
});
export type ContextReading = z.infer<typeof ContextReading>;
export const DaemonContextReading = ContextReading.extend({
  state: z.enum(CONTEXT_STATES),
  size_source: z.enum(["agent", "catalog"]).optional(),
});

const Money = z.number().nonnegative();
/** Go `*int64` counters: absent or `null` when never reported. */
const Counter = Count.nullish();

const COST_STATUSES = ["actual", "estimated", "included", "unknown"] as const;
const COST_SOURCES = ["agent_reported", "catalog_config", "models_dev", "builtin", "none"] as const;

export const SessionUsage = z.object({
  context: ContextReading.optional(),
  input_tokens: Counter,
  output_tokens: Counter,
  total_tokens: Counter,
  cache_read_tokens: Counter,
  cache_write_tokens: Counter,
  total_cost: Money.nullish(),
  cost_currency: z.string().optional(),
  cost_status: z.string().optional(),
  cost_source: z.string().optional(),
  turn_count: Count,
});
export type SessionUsage = z.infer<typeof SessionUsage>;
export const DaemonSessionUsage = SessionUsage.extend({
  context: DaemonContextReading,
  cost_status: z.enum(COST_STATUSES).optional(),
  cost_source: z.enum(COST_SOURCES).optional(),
});

export const UsageEnvelope = z.object({ usage: SessionUsage });
export type UsageEnvelope = z.infer<typeof UsageEnvelope>;
export const DaemonUsageEnvelope = z.object({ usage: DaemonSessionUsage });

/** One usage report of a turn (CompozyOS `UITokenUsagePayload`). */
export const TurnUsage = z.object({
  input_tokens: Count.optional(),
  output_tokens: Count.optional(),
  total_tokens: Count.optional(),
  thought_tokens: Count.optional(),
  cache_read_tokens: Count.optional(),
  cache_write_tokens: Count.optional(),
  context_used: Count.optional(),
  context_size: Count.optional(),
  cost_amount: Money.optional(),
  cost_currency: z.string().optional(),
  timestamp: Timestamp,
  /**
   * Tideline: the ledger sequence of the usage report `context_used` came from (a turn's
   * figure is its last reading), so the chart can place it among compactions in report order.
   */
  context_sequence: Sequence.optional(),
});
export type TurnUsage = z.infer<typeof TurnUsage>;

export const Turn = z.object({
  turn_id: Id,
  sequence: Sequence,
  usage: TurnUsage.optional(),
});
export type Turn = z.infer<typeof Turn>;

/**
 * Tideline: a marker's "after" figure as the daemon derived it from the ledger (ADR 0121):
 * the first context reading reported after the compaction's terminal snapshot and before
 * the next compaction began. `sequence` is that usage report's ledger sequence.
 */
export const MarkerContextAfter = z.object({
  used: Count,
  size: Count.optional(),
  sequence: Sequence,
  turn_id: TurnId.optional(),
  reported_at: Timestamp.optional(),
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
  status: z.string().min(1),
  context_used: Count.optional(),
  context_size: Count.optional(),
  context_after: MarkerContextAfter.nullable().optional(),
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
