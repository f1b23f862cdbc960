// How ledger rows fold into transcript messages (docs/ledger.md §4), one row at a time.
// Pure: the ledger's projection decides which entry a row belongs to and stores the
// result; these functions only build or extend the message. A tool call's own part is
// folded in `tool-call-fold.ts`.

import type {
  CompactionItem,
  DaemonMessage,
  KnownPart,
  PermissionData,
  PermissionPart,
} from "../../src/contract/transcript";
import type { ContentBlock } from "./acp-update";
import type { CompactionSnapshot } from "./compaction-intake";
import { blockPlaceholder } from "./redact-summary";
import type { PermissionRequestRecord, PermissionResolutionRecord } from "./session-recorder-api";

/** Rows that start or extend an entry; every other row type is history-only. */
export type EntryKind = "user" | "assistant" | "tool" | "compaction" | "event";

/** Row types shown as one muted `data-compozy-event` line. */
export const EVENT_ROW_TYPES: ReadonlySet<string> = new Set([
  "plan",
  "notice",
  "permission",
  "agent.exited",
  "session.state",
  "agent.unknown_update",
  "agent.invalid_frame",
  "session.replay_carried",
]);

/** A prompt as CompozyOS shows it: one finished text part, without an id. */
export function userMessage(
  id: string,
  text: string,
  maintenance: boolean,
  meta: {
    turn_id?: string | null;
    message_id?: unknown;
    typed?: boolean;
    requested_by?: unknown;
  } = {},
): DaemonMessage {
  const metadata: Record<string, unknown> = {};
  if (typeof meta.turn_id === "string") metadata.turn_id = meta.turn_id;
  if (typeof meta.message_id === "string") metadata.message_id = meta.message_id;
  if (maintenance) metadata.maintenance = true;
  // The person typed the compaction command that this maintenance turn runs (ADR 0116).
  if (maintenance && meta.typed === true) metadata.typed = true;
  // Who asked for the compaction this maintenance turn runs (web, cli, tool, http).
  if (maintenance && typeof meta.requested_by === "string") {
    metadata.requested_by = meta.requested_by;
  }
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

/**
 * A permission request as CompozyOS's `data-compozy-permission` part, id'd by request id,
 * placed in its tool call's message; its answer replaces the part's data in place.
 */
export function foldPermission(
  message: DaemonMessage,
  requestId: string,
  data: PermissionData,
): DaemonMessage {
  const parts = message.parts.filter(
    (part) => !(part.type === "data-compozy-permission" && part.id === requestId),
  );
  const index = message.parts.findIndex(
    (part) => part.type === "data-compozy-permission" && part.id === requestId,
  );
  const part: PermissionPart = { type: "data-compozy-permission", id: requestId, data };
  if (index === -1) parts.push(part);
  else parts.splice(index, 0, part);
  return { ...message, parts };
}

/** The permission part's data for a `permission.requested` row. */
export function permissionRequestData(
  sessionId: string,
  turnId: string | null,
  request: PermissionRequestRecord,
  at: string,
): PermissionData {
  const toolCall = request.tool_call;
  return {
    type: "permission",
    session_id: sessionId,
    ...(turnId === null ? {} : { turn_id: turnId }),
    request_id: request.request_id,
    timestamp: at,
    title: request.title,
    tool_call_id: request.tool_call_id,
    action: "session/request_permission",
    ...(request.kind === undefined ? {} : { resource: request.kind }),
    status: "pending",
    raw: {
      request_id: request.request_id,
      options: request.options.map((option) => ({
        ...(option.decision === undefined ? {} : { decision: option.decision }),
        option_id: option.option_id,
        kind: option.kind,
        label: option.name,
      })),
      ...(toolCall.rawInput === undefined ? {} : { tool_input: toolCall.rawInput }),
      tool_call: {
        id: request.tool_call_id,
        ...(request.kind === undefined ? {} : { kind: request.kind }),
        title: request.title,
        ...(typeof toolCall.status === "string" ? { status: toolCall.status } : {}),
        ...(Array.isArray(toolCall.locations) ? { locations: toolCall.locations } : {}),
        ...(Array.isArray(toolCall.content) ? { content: toolCall.content } : {}),
      },
    },
  };
}

/** The permission part's data once answered: the request's, plus what was chosen, by whom. */
export function permissionResolvedData(
  previous: PermissionData | undefined,
  resolution: PermissionResolutionRecord,
  at: string,
): PermissionData {
  const data: PermissionData = {
    ...(previous ?? {
      type: "permission",
      request_id: resolution.request_id,
      tool_call_id: resolution.tool_call_id,
      action: "session/request_permission",
    }),
    status: resolution.status,
    resolved_by: resolution.resolved_by,
    resolved_at: at,
  };
  if (resolution.decision !== undefined) data.decision = resolution.decision;
  if (resolution.option_id !== undefined) data.option_id = resolution.option_id;
  if (resolution.option_name !== undefined) data.option_label = resolution.option_name;
  if (resolution.reason !== undefined) data.reason = resolution.reason;
  if (data.raw !== undefined && resolution.decision !== undefined) {
    data.raw = { ...data.raw, decision: resolution.decision };
  }
  return data;
}

/** Replayed or echoed user words (`user_message_chunk`): a user message, extended per chunk. */
export function appendUserChunk(
  id: string,
  previous: DaemonMessage | undefined,
  block: ContentBlock,
): DaemonMessage {
  const message = previous ?? { id, role: "user", parts: [] };
  return appendChunk(message, "text", block);
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
  // CompozyOS's projection carries markers in the assistant role (ADR 0190).
  return { id, role: "assistant", parts: [part] };
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
  // CompozyOS event parts carry no id; markers are in the assistant role (ADR 0190).
  return { id, role: "assistant", parts: [{ type: "data-compozy-event", data }] };
}
