// The transcript read model (CompozyOS `internal/transcript/ui_messages.go`, contract
// `session_transcript.go`): entries of AI-SDK style UI messages made of parts. Known part
// types are parsed with their CompozyOS shape; anything else (a newer daemon's part, or a
// malformed known one) becomes an `UnsupportedPart` so a client renders a generic row
// instead of failing. A `null` parts array reads as `[]`.

import { goSlice, Id, Int64, queryInt, Sequence, Timestamp } from "./primitives";
import { z } from "./zod";

const TERMINAL_COMPACTION_STATUSES = ["completed", "failed", "cancelled"] as const;
export type TerminalCompactionStatus = (typeof TERMINAL_COMPACTION_STATUSES)[number];
/** `in_progress`, a terminal status, or a vendor status kept verbatim (`_paused`). */
export type CompactionStatus = "in_progress" | TerminalCompactionStatus | (string & {});

export function isTerminalCompactionStatus(status: string): status is TerminalCompactionStatus {
  return (TERMINAL_COMPACTION_STATUSES as readonly string[]).includes(status);
}

/** The folded Compaction item (October release, "The Compaction item"). */
export const CompactionItem = z.object({
  kind: z.literal("compaction"),
  compaction_id: Id,
  status: z.string().check(z.minLength(1)) as z.ZodMiniType<CompactionStatus>,
  summary: z.optional(z.string()),
  error: z.optional(z.string()),
  started_at: Timestamp,
  ended_at: z.optional(Timestamp),
});
export type CompactionItem = z.infer<typeof CompactionItem>;

/** User text parts carry no `id`; assistant ones are `<message id>-text-<n>`. */
const TextPart = z.object({
  type: z.literal("text"),
  id: z.optional(z.string()),
  text: z.string(),
  state: z.optional(z.string()),
});

const ReasoningPart = z.object({
  type: z.literal("reasoning"),
  id: z.optional(z.string()),
  text: z.string(),
  state: z.optional(z.string()),
});

const TOOL_STATES = [
  "input-streaming",
  "input-available",
  "output-available",
  "output-error",
] as const;
const ToolState = z.enum(TOOL_STATES);

const toolFields = {
  toolCallId: z.string(),
  title: z.optional(z.string()),
  state: ToolState,
  input: z.optional(z.unknown()),
  rawInput: z.optional(z.unknown()),
  output: z.optional(z.unknown()),
  errorText: z.optional(z.string()),
  preliminary: z.optional(z.boolean()),
};

/** A tool call whose kind CompozyOS knows: `tool-<kind>` (`tool-read`, `tool-execute`…). */
export const ToolPart = z.object({
  type: z.templateLiteral(["tool-", z.string().check(z.minLength(1))]),
  ...toolFields,
});
export type ToolPart = z.infer<typeof ToolPart>;

/** A tool call with a free-form name (an MCP tool…): `dynamic-tool` with `toolName`. */
export const DynamicToolPart = z.object({
  type: z.literal("dynamic-tool"),
  toolName: z.string(),
  ...toolFields,
});
export type DynamicToolPart = z.infer<typeof DynamicToolPart>;

/** An attachment of a user prompt (`compozy-attachment://<id>` URLs on CompozyOS). */
export const FilePart = z.object({
  type: z.literal("file"),
  mediaType: z.string(),
  url: z.string(),
  filename: z.optional(z.string()),
});
export type FilePart = z.infer<typeof FilePart>;

/**
 * The data of `data-compozy-event` and `data-compozy-permission` parts (CompozyOS
 * `UIAgentEventPayload`): every field but `type` is optional.
 */
const AgentEventData = z.looseObject({
  type: z.string(),
  session_id: z.optional(z.string()),
  turn_id: z.optional(z.string()),
  request_id: z.optional(z.string()),
  timestamp: z.optional(z.string()),
  text: z.optional(z.string()),
  title: z.optional(z.string()),
  tool_call_id: z.optional(z.string()),
  stop_reason: z.optional(z.string()),
  action: z.optional(z.string()),
  resource: z.optional(z.string()),
  decision: z.optional(z.string()),
  resolved_by: z.optional(z.string()),
  error: z.optional(z.string()),
  raw: z.optional(z.unknown()),
});

/** One muted timeline line (plan, error, runtime marker, tool call note): no `id`. */
const EventPart = z.object({
  type: z.literal("data-compozy-event"),
  id: z.optional(z.string()),
  data: AgentEventData,
});

/** A permission request and its decision, keyed by the request id when there is one. */
export const PermissionPart = z.object({
  type: z.literal("data-compozy-permission"),
  id: z.optional(z.string()),
  data: AgentEventData,
});
export type PermissionPart = z.infer<typeof PermissionPart>;

/** The Compaction item: its part id is the compaction id. */
const CompactionPart = z.object({
  type: z.literal("data-compozy-compaction"),
  id: Id,
  data: CompactionItem,
});

/** One option of a permission request in CompozyOS's `raw.options` shape. */
const PermissionOptionData = z.looseObject({
  option_id: z.string(),
  kind: z.string(),
  label: z.optional(z.string()),
  decision: z.optional(z.string()),
});

/**
 * The data of a `data-compozy-permission` part as the reference daemon writes it: CompozyOS's
 * permission payload (`UIAgentEventPayload` of a permission event) — the request at its tool
 * call, then what was chosen and by whom — plus Tideline's `status`, `option_id`,
 * `option_label`, `reason`, `resolved_at` (ADR 0091). A client parses `part.data` with it
 * where it wants the details; the part itself accepts any `AgentEventData`.
 */
export const PermissionData = z.looseObject({
  type: z.literal("permission"),
  session_id: z.optional(z.string()),
  turn_id: z.optional(z.string()),
  request_id: z.optional(z.string()),
  timestamp: z.optional(z.string()),
  title: z.optional(z.string()),
  tool_call_id: z.optional(z.string()),
  action: z.optional(z.string()),
  resource: z.optional(z.string()),
  decision: z.optional(z.string()),
  resolved_by: z.optional(z.string()),
  status: z.optional(z.string()),
  option_id: z.optional(z.string()),
  option_label: z.optional(z.string()),
  reason: z.optional(z.string()),
  resolved_at: z.optional(z.string()),
  raw: z.optional(
    z.looseObject({
      request_id: z.optional(z.string()),
      options: z.optional(z.array(PermissionOptionData)),
      tool_input: z.optional(z.unknown()),
      tool_call: z.optional(z.looseObject({})),
    }),
  ),
});
export type PermissionData = z.infer<typeof PermissionData>;

export const KnownPart = z.union([
  TextPart,
  ReasoningPart,
  ToolPart,
  DynamicToolPart,
  FilePart,
  EventPart,
  PermissionPart,
  CompactionPart,
]);
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
export const Part = z.pipe(
  z.unknown(),
  z.transform((raw): KnownPart | UnsupportedPart => {
    const known = KnownPart.safeParse(raw);
    if (known.success) return known.data;
    return {
      type: "unsupported",
      original_type: describePart(raw),
      reason: known.error.issues[0]?.message ?? "unrecognised part",
      raw,
    };
  }),
);
export type Part = z.infer<typeof Part>;

const ROLES = ["system", "user", "assistant"] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export const Message = z.object({
  id: Id,
  role: Role,
  metadata: z.optional(z.unknown()),
  parts: goSlice(Part),
});
export type Message = z.infer<typeof Message>;

/** The strict form the daemon validates before sending: every part a known one. */
export const DaemonMessage = z.extend(Message, { parts: z.array(KnownPart) });
export type DaemonMessage = z.infer<typeof DaemonMessage>;

export const Entry = z.object({
  message: Message,
  start_sequence: Sequence,
  sequence: Sequence,
});
export type Entry = z.infer<typeof Entry>;
export const DaemonEntry = z.extend(Entry, { message: DaemonMessage });
export type DaemonEntry = z.infer<typeof DaemonEntry>;

/** `GET …/transcript` (CompozyOS `SessionTranscriptResponse`). */
export const TranscriptPage = z.object({
  entries: goSlice(Entry),
  epoch: Int64,
  generation: Int64,
  max_sequence: Sequence,
  has_older: z.boolean(),
  next_before_sequence: z.optional(Sequence),
  limit: z.int().check(z.nonnegative()),
});
export type TranscriptPage = z.infer<typeof TranscriptPage>;
export const DaemonTranscriptPage = z.extend(TranscriptPage, { entries: z.array(DaemonEntry) });

export const TRANSCRIPT_DEFAULT_LIMIT = 200;
export const TRANSCRIPT_MAX_LIMIT = 1000;
export const TranscriptQuery = z.strictObject({
  limit: z.optional(queryInt(1, TRANSCRIPT_MAX_LIMIT)),
  before_sequence: z.optional(queryInt(0, Number.MAX_SAFE_INTEGER)),
});
export type TranscriptQuery = z.infer<typeof TranscriptQuery>;

export function compactionOf(entry: Entry): CompactionItem | undefined {
  const part = entry.message.parts.find(
    (candidate) => candidate.type === "data-compozy-compaction",
  );
  return part?.type === "data-compozy-compaction" ? part.data : undefined;
}

const MARKER_PARTS: ReadonlySet<string> = new Set([
  "data-compozy-event",
  "data-compozy-compaction",
]);

/**
 * Who a message is from, as a reader sees it: a state line or a compaction is nobody's
 * words whatever its wire role (CompozyOS sends such markers as `assistant`, ADR 0190).
 */
export function speakerOf(message: Pick<Message, "role" | "parts">): Role {
  if (message.role === "user") return "user";
  const marker =
    message.parts.length > 0 && message.parts.every((part) => MARKER_PARTS.has(part.type));
  return marker || message.role === "system" ? "system" : "assistant";
}

/** The tool name a tool part shows: `toolName` of a dynamic tool, else the type's tail. */
export function toolNameOf(part: ToolPart | DynamicToolPart): string {
  return part.type === "dynamic-tool" ? part.toolName : part.type.slice("tool-".length);
}
