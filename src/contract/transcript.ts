// The transcript read model: entries of messages made of parts. Known part types are
// parsed strictly; anything else (a newer daemon's part, or a malformed known one)
// becomes an `UnsupportedPart` so a client renders a generic row instead of failing.
import { z } from "zod";
import { Count, Id, queryInt, Sequence, Timestamp } from "./primitives";

export const TERMINAL_COMPACTION_STATUSES = ["completed", "failed", "cancelled"] as const;
export type TerminalCompactionStatus = (typeof TERMINAL_COMPACTION_STATUSES)[number];
/** `in_progress`, a terminal status, or a vendor status kept verbatim (`_paused`). */
export type CompactionStatus = "in_progress" | TerminalCompactionStatus | (string & {});

export function isTerminalCompactionStatus(status: string): status is TerminalCompactionStatus {
  return (TERMINAL_COMPACTION_STATUSES as readonly string[]).includes(status);
}

export const CompactionItem = z.object({
  kind: z.literal("compaction"),
  compaction_id: Id,
  status: z.string().min(1) as z.ZodType<CompactionStatus>,
  summary: z.string().optional(),
  error: z.string().optional(),
  started_at: Timestamp,
  ended_at: Timestamp.optional(),
});
export type CompactionItem = z.infer<typeof CompactionItem>;

export const TextPart = z.object({
  type: z.literal("text"),
  id: z.string(),
  text: z.string(),
  state: z.string().optional(),
});
export type TextPart = z.infer<typeof TextPart>;

export const ReasoningPart = z.object({
  type: z.literal("reasoning"),
  id: z.string(),
  text: z.string(),
  state: z.string().optional(),
});
export type ReasoningPart = z.infer<typeof ReasoningPart>;

export const TOOL_STATES = ["input-available", "output-available", "output-error"] as const;
export const ToolPart = z.object({
  type: z.templateLiteral(["tool-", z.string()]),
  toolCallId: z.string(),
  title: z.string(),
  state: z.enum(TOOL_STATES),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  errorText: z.string().optional(),
});
export type ToolPart = z.infer<typeof ToolPart>;

export const CompactionPart = z.object({
  type: z.literal("data-compozy-compaction"),
  id: z.string(),
  data: CompactionItem,
});
export type CompactionPart = z.infer<typeof CompactionPart>;

/** One muted timeline line: plan, permission, agent exit, state change, unknown update. */
export const EventPart = z.object({
  type: z.literal("data-compozy-event"),
  id: z.string(),
  data: z.looseObject({ type: z.string() }),
});
export type EventPart = z.infer<typeof EventPart>;

export const KnownPart = z.union([TextPart, ReasoningPart, ToolPart, CompactionPart, EventPart]);
export type KnownPart = z.infer<typeof KnownPart>;

/** What a client keeps of a part it cannot render: its type and why it was not understood. */
export type UnsupportedPart = {
  type: "unsupported";
  original_type: string;
  reason: string;
  raw: unknown;
};

function describePart(raw: unknown): string {
  if (typeof raw === "object" && raw !== null && "type" in raw) {
    const type = (raw as { type: unknown }).type;
    if (typeof type === "string" && type.length > 0) return type;
  }
  return "unknown";
}

/** Lenient part parser for clients: never fails. */
export const Part = z.unknown().transform((raw): KnownPart | UnsupportedPart => {
  const known = KnownPart.safeParse(raw);
  if (known.success) return known.data;
  return {
    type: "unsupported",
    original_type: describePart(raw),
    reason: known.error.issues[0]?.message ?? "unrecognised part",
    raw,
  };
});
export type Part = z.infer<typeof Part>;

export const Role = z.enum(["system", "user", "assistant"]);
export type Role = z.infer<typeof Role>;

export const Message = z.object({
  id: Id,
  role: Role,
  metadata: z.record(z.string(), z.unknown()).optional(),
  parts: z.array(Part),
});
export type Message = z.infer<typeof Message>;

/** The strict form the daemon validates before sending: every part is a known one. */
export const DaemonMessage = Message.extend({ parts: z.array(KnownPart) });
export type DaemonMessage = z.infer<typeof DaemonMessage>;

export const Entry = z.object({
  message: Message,
  start_sequence: Sequence,
  sequence: Sequence,
});
export type Entry = z.infer<typeof Entry>;

export const DaemonEntry = Entry.extend({ message: DaemonMessage });
export type DaemonEntry = z.infer<typeof DaemonEntry>;

export const TranscriptPage = z.object({
  entries: z.array(Entry),
  epoch: z.string(),
  generation: Count,
  max_sequence: Sequence,
  has_older: z.boolean(),
  next_before_sequence: Sequence.optional(),
  limit: Count,
});
export type TranscriptPage = z.infer<typeof TranscriptPage>;

export const TRANSCRIPT_DEFAULT_LIMIT = 200;
export const TranscriptQuery = z.strictObject({
  limit: queryInt(1, 1000).optional(),
  before_sequence: queryInt(0, Number.MAX_SAFE_INTEGER).optional(),
});
export type TranscriptQuery = z.infer<typeof TranscriptQuery>;

export function compactionOf(entry: Entry): CompactionItem | undefined {
  const part = entry.message.parts[0];
  return part?.type === "data-compozy-compaction" ? part.data : undefined;
}
