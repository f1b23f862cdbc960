// How ledger rows fold into transcript messages (acp-intake.md §4), one row at a time.
// Pure: the ledger's projection decides which entry a row belongs to and stores the
// result; these functions only build or extend the message.
import type {
  CompactionItem,
  DaemonMessage,
  KnownPart,
  ToolPart,
} from "../../src/contract/transcript";
import type { ContentBlock } from "./acp-update";
import type { CompactionSnapshot } from "./compaction-intake";
import { blockPlaceholder } from "./redact-summary";

/** Rows that start or extend an entry; every other row type is history-only. */
export type EntryKind = "user" | "assistant" | "tool" | "compaction" | "event";

/** Row types shown as one muted `data-compozy-event` line. */
export const EVENT_ROW_TYPES: ReadonlySet<string> = new Set([
  "plan",
  "permission",
  "agent.exited",
  "session.state",
  "agent.unknown_update",
  "agent.invalid_frame",
]);

/** A prompt as CompozyOS shows it: one finished text part, without an id. */
export function userMessage(
  id: string,
  text: string,
  maintenance: boolean,
  meta: { turn_id?: string | null; message_id?: unknown } = {},
): DaemonMessage {
  const metadata: Record<string, unknown> = {};
  if (typeof meta.turn_id === "string") metadata.turn_id = meta.turn_id;
  if (typeof meta.message_id === "string") metadata.message_id = meta.message_id;
  if (maintenance) metadata.maintenance = true;
  const message: DaemonMessage = {
    id,
    role: "user",
    parts: [{ type: "text", text, state: "done" }],
  };
  if (Object.keys(metadata).length > 0) message.metadata = metadata;
  return message;
}

export function emptyAssistantMessage(id: string): DaemonMessage {
  return { id, role: "assistant", parts: [] };
}

/** What a message chunk adds to its part: its text, or a placeholder line for media. */
export function chunkText(block: ContentBlock): string {
  return block.type === "text" ? block.text : `${blockPlaceholder(block)}\n`;
}

/**
 * A long streamed message is stored as its folded JSON plus a tail of text not folded in
 * yet (see the ledger's entry_tails): the tail belongs at the end of the last part.
 */
export function withTail(message: DaemonMessage, tail: string | null | undefined): DaemonMessage {
  if (!tail) return message;
  const last = message.parts[message.parts.length - 1];
  if (last !== undefined && (last.type === "text" || last.type === "reasoning")) {
    message.parts[message.parts.length - 1] = { ...last, text: last.text + tail };
  }
  return message;
}

/** Text extends the last part when it is of the same kind, else opens a new part. */
export function appendChunk(
  message: DaemonMessage,
  kind: "text" | "reasoning",
  block: ContentBlock,
): DaemonMessage {
  const text = chunkText(block);
  const parts = message.parts;
  const last = parts[parts.length - 1];
  if (last !== undefined && last.type === kind) {
    parts[parts.length - 1] = { ...last, text: last.text + text };
  } else {
    parts.push({ type: kind, id: `${message.id}-${parts.length}`, text });
  }
  return message;
}

/** A tool row's content: the ACP `tool_call` / `tool_call_update` fields, verbatim. */
export type ToolFields = {
  toolCallId: string;
  title?: string | null | undefined;
  kind?: string | null | undefined;
  status?: string | null | undefined;
  content?: unknown[] | null | undefined;
  rawInput?: unknown;
  rawOutput?: unknown;
};

const TOOL_STATE: Record<string, ToolPart["state"]> = {
  pending: "input-streaming",
  in_progress: "input-available",
  completed: "output-available",
  failed: "output-error",
};

function textOfToolContent(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const item of content) {
    const block = (item as { content?: { type?: unknown; text?: unknown } } | null)?.content;
    if (block?.type === "text" && typeof block.text === "string") texts.push(block.text);
  }
  return texts.length > 0 ? texts.join("\n") : undefined;
}

function errorTextOf(part: ToolPart, frame: ToolFields): string {
  if (typeof frame.rawOutput === "string" && frame.rawOutput.length > 0) return frame.rawOutput;
  const error = (frame.rawOutput as { error?: unknown } | null | undefined)?.error;
  if (typeof error === "string" && error.length > 0) return error;
  return textOfToolContent(frame.content) ?? part.errorText ?? "Tool call failed";
}

/**
 * `tool_call` creates the part, `tool_call_update` patches it: a field that is absent or
 * null leaves the previous value (ACP sends only what changed).
 */
export function foldToolCall(
  id: string,
  previous: DaemonMessage | undefined,
  frame: ToolFields,
): DaemonMessage {
  const old = previous?.parts[0] as ToolPart | undefined;
  const kind = frame.kind ?? (old ? old.type.slice("tool-".length) : "other");
  const input = frame.rawInput !== undefined ? frame.rawInput : old?.input;
  let state: ToolPart["state"] = frame.status
    ? (TOOL_STATE[frame.status] ?? "input-available")
    : (old?.state ?? "input-streaming");
  // CompozyOS: input-streaming only until the input is known.
  if (state === "input-streaming" && input !== undefined) state = "input-available";
  const part: ToolPart = { type: `tool-${kind}`, toolCallId: frame.toolCallId, state };
  // The title is optional (CompozyOS omits an empty one); it is never made up.
  const title = frame.title ?? old?.title;
  if (title !== undefined && title !== "") part.title = title;
  if (input !== undefined) part.input = input;
  let output = old?.output;
  if (frame.rawOutput !== undefined) output = frame.rawOutput;
  else if (frame.content !== undefined && frame.content !== null) output = frame.content;
  if (output !== undefined) part.output = output;
  if (part.state === "output-error") part.errorText = errorTextOf(part, frame);
  return { id, role: "assistant", parts: [part] };
}

/**
 * One compaction id, one system message. `started_at` is the first row's time and
 * `ended_at` the `terminal: true` row's time, never moved by a later correction; status,
 * summary and error come from the newest row.
 */
export function foldCompaction(
  id: string,
  previous: DaemonMessage | undefined,
  snapshot: CompactionSnapshot,
  at: string,
): DaemonMessage {
  const old = (previous?.parts[0] as { data?: CompactionItem } | undefined)?.data;
  const item: CompactionItem = {
    kind: "compaction",
    compaction_id: snapshot.compaction_id,
    status: snapshot.status,
    started_at: old?.started_at ?? at,
  };
  if (snapshot.summary !== undefined) item.summary = snapshot.summary;
  if (snapshot.error !== undefined) item.error = snapshot.error;
  const endedAt = old?.ended_at ?? (snapshot.terminal === true ? at : undefined);
  if (endedAt !== undefined) item.ended_at = endedAt;
  const part: KnownPart = {
    type: "data-compozy-compaction",
    id: snapshot.compaction_id,
    data: item,
  };
  return { id, role: "system", parts: [part] };
}

/**
 * A muted line: the row's content under its type. An invalid frame shows only its error;
 * the raw text (untrusted, possibly huge) stays in the history.
 */
export function eventMessage(
  id: string,
  type: string,
  content: Record<string, unknown>,
): DaemonMessage {
  if (type === "permission") {
    // A permission request is its own part, keyed by the tool call it asks about.
    const toolCallId = typeof content.tool_call_id === "string" ? content.tool_call_id : "";
    const part: KnownPart = {
      type: "data-compozy-permission",
      data: { ...content, type, ...(toolCallId === "" ? {} : { request_id: toolCallId }) },
    };
    if (toolCallId !== "") part.id = toolCallId;
    return { id, role: "assistant", parts: [part] };
  }
  // An unmodelled update's fields are the agent's, so they go under `raw` where they cannot
  // collide with the event fields; an invalid frame shows only its error.
  const data =
    type === "agent.invalid_frame"
      ? { type, error: String(content.error ?? "") }
      : type === "agent.unknown_update"
        ? { type, raw: content }
        : { ...content, type };
  // CompozyOS event parts carry no id.
  return { id, role: "system", parts: [{ type: "data-compozy-event", data }] };
}
