// The usage read model: what the context meter, turns list and chart read.
import { z } from "zod";
import { Count, Id, Sequence, Timestamp } from "./primitives";

export const CONTEXT_STATES = ["reported", "estimated_size", "unknown", "unavailable"] as const;
export const ContextState = z.enum(CONTEXT_STATES);
export type ContextState = z.infer<typeof ContextState>;

export const ContextReading = z.object({
  state: ContextState,
  used: Count.optional(),
  size: Count.optional(),
  ratio: z.number().nonnegative().optional(),
  size_source: z.enum(["agent", "catalog"]).optional(),
  sequence: Sequence.optional(),
  reported_turn_id: Id.optional(),
  reported_at: Timestamp.optional(),
  cleared_by: z.object({ compaction_id: Id, sequence: Sequence }).optional(),
});
export type ContextReading = z.infer<typeof ContextReading>;

const Money = z.number().nonnegative();

export const SessionUsage = z.object({
  context: ContextReading,
  input_tokens: Count.optional(),
  output_tokens: Count.optional(),
  total_tokens: Count.optional(),
  cache_read_tokens: Count.optional(),
  cache_write_tokens: Count.optional(),
  total_cost: Money.optional(),
  cost_currency: z.string().optional(),
  turn_count: Count,
});
export type SessionUsage = z.infer<typeof SessionUsage>;

export const UsageEnvelope = z.object({ usage: SessionUsage });
export type UsageEnvelope = z.infer<typeof UsageEnvelope>;

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

export const CompactionTrigger = z.enum(["agent", "requested"]);
export type CompactionTrigger = z.infer<typeof CompactionTrigger>;

export const CompactionMarker = z.object({
  turn_id: Id.optional(),
  sequence: Sequence,
  at: Timestamp,
  compaction_id: Id,
  trigger: CompactionTrigger,
  status: z.string().min(1),
  context_used: Count.optional(),
  context_size: Count.optional(),
  context_after: z.object({ used: Count, size: Count.optional(), sequence: Sequence }).optional(),
});
export type CompactionMarker = z.infer<typeof CompactionMarker>;

export const UsageTurns = z.object({
  turns: z.array(Turn),
  compactions: z.array(CompactionMarker),
});
export type UsageTurns = z.infer<typeof UsageTurns>;
