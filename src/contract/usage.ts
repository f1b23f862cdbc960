// The usage read models: `GET …/usage` (CompozyOS `SessionUsagePayload`, plus the
// October release's `context` reading) and `GET …/usage/turns` (October release). A
// daemon that predates either answers without `context`, or 404 for `/usage/turns`: a
// client then says the daemon reports no context instead of showing a number.
import { z } from "zod";
import { CompactionTrigger } from "./history";
import { Count, Id, Sequence, Timestamp, TurnId } from "./primitives";

export const CONTEXT_STATES = ["reported", "estimated_size", "unknown", "unavailable"] as const;
export type ContextState = (typeof CONTEXT_STATES)[number];
/** A state this client does not know reads as `unknown`: no figure is shown. */
export const ContextState = z.enum(CONTEXT_STATES).catch("unknown");

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

export const COST_STATUSES = ["actual", "estimated", "included", "unknown"] as const;
export const COST_SOURCES = [
  "agent_reported",
  "catalog_config",
  "models_dev",
  "builtin",
  "none",
] as const;

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
});
export type TurnUsage = z.infer<typeof TurnUsage>;

export const Turn = z.object({
  turn_id: Id,
  sequence: Sequence,
  usage: TurnUsage.optional(),
});
export type Turn = z.infer<typeof Turn>;

/**
 * One observed compaction (October release, "Usage markers"). `turn_id`, `sequence`, `at`
 * and `status` describe the newest snapshot of the id; the context figures come from the
 * fired event and are absent (not null) when unknown.
 */
export const CompactionMarker = z.object({
  turn_id: TurnId,
  sequence: Sequence,
  at: Timestamp,
  compaction_id: Id,
  trigger: CompactionTrigger,
  status: z.string().min(1),
  context_used: Count.optional(),
  context_size: Count.optional(),
});
export type CompactionMarker = z.infer<typeof CompactionMarker>;

export const UsageTurns = z.object({
  turns: z.array(Turn),
  compactions: z.array(CompactionMarker),
});
export type UsageTurns = z.infer<typeof UsageTurns>;

/** A context figure read after a compaction: the "after" number of its marker. */
export type ContextAfter = { used: number; size?: number; sequence: number; turn_id: string };

/**
 * The "after" figure of a marker, as CompozyOS's web derives it: the first usage report
 * with a context reading of a later turn, before the next compaction. Undefined when
 * there is none yet.
 */
export function contextAfterOf(
  marker: CompactionMarker,
  usageTurns: UsageTurns,
): ContextAfter | undefined {
  const next = usageTurns.compactions
    .filter((other) => other.sequence > marker.sequence)
    .reduce<number | undefined>(
      (lowest, other) =>
        lowest === undefined || other.sequence < lowest ? other.sequence : lowest,
      undefined,
    );
  const turn = [...usageTurns.turns]
    .sort((a, b) => a.sequence - b.sequence)
    .find(
      (candidate) =>
        candidate.sequence > marker.sequence &&
        candidate.turn_id !== marker.turn_id &&
        (next === undefined || candidate.sequence < next) &&
        candidate.usage?.context_used !== undefined,
    );
  const used = turn?.usage?.context_used;
  if (turn === undefined || used === undefined) return undefined;
  return {
    used,
    ...(turn.usage?.context_size === undefined ? {} : { size: turn.usage.context_size }),
    sequence: turn.sequence,
    turn_id: turn.turn_id,
  };
}
