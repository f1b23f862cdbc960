// The write side of the transcript read model (docs/ledger.md §4): each appended row
// updates at most one entry, inside the append's transaction. An entry is keyed by what
// it stands for (a tool call id, a compaction id, an agent message id, or the sequence
// that started it), which also makes its message id stable. The entries table is
// `transcript-entries.ts`; a streaming agent message's tail is `streaming-messages.ts`.
import type Database from "better-sqlite3";
import type { DaemonMessage, PermissionData, PermissionPart } from "../../src/contract/transcript";
import type { ContentBlock } from "../domain/acp-update";
import type { CompactionSnapshot } from "../domain/compaction-intake";
import type {
  LedgerRow,
  PermissionRequestRecord,
  PermissionResolutionRecord,
} from "../domain/session-recorder-api";
import { foldToolCall, type ToolFields, toolFieldsOfRequest } from "../domain/tool-call-fold";
import {
  appendUserChunk,
  EVENT_ROW_TYPES,
  eventMessage,
  foldCompaction,
  foldPermission,
  permissionRequestData,
  permissionResolvedData,
  userMessage,
} from "../domain/transcript-fold";
import { createSearchIndex } from "./search-index";
import { createStreamingMessages, type StreamingMessages } from "./streaming-messages";
import { createTranscriptEntries, type TranscriptEntries } from "./transcript-entries";

export type TranscriptProjection = {
  apply(row: LedgerRow): void;
  /** Drops what is cached for a session (its transaction rolled back). */
  forget(sessionId: string): void;
};

/** A prompt's entry, named by the client's own message id as CompozyOS does (ADR 0190). */
function inputMessage(row: LedgerRow): DaemonMessage {
  const messageId = row.content.message_id;
  return userMessage(
    typeof messageId === "string" && messageId !== "" ? messageId : `user-${row.sequence}`,
    String(row.content.text),
    row.content.maintenance === true,
    {
      turn_id: row.turn_id,
      message_id: messageId,
      typed: row.content.typed === true,
      requested_by: row.content.requested_by,
    },
  );
}

/** Replayed user words: one entry per message id, or per run of id-less chunks in a turn. */
function userChunkKey(entries: TranscriptEntries, row: LedgerRow): string {
  const messageId = row.content.message_id;
  if (typeof messageId === "string") return `umsg-${messageId}`;
  const last = entries.newest(row.session_id);
  if (last?.entry_key.startsWith("uchunk-") && last.turn_id === row.turn_id) {
    return last.entry_key;
  }
  return `uchunk-${row.sequence}`;
}

/** A permission request joins its tool call's entry (made from the request if unseen). */
function applyPermissionRequested(entries: TranscriptEntries, row: LedgerRow): void {
  const request = row.content as PermissionRequestRecord;
  const key = `tool-${request.tool_call_id}`;
  const data = permissionRequestData(row.session_id, row.turn_id, request, row.created_at);
  entries.upsert(row, "tool", key, (old) =>
    foldPermission(
      old ??
        foldToolCall(key, undefined, toolFieldsOfRequest(request.tool_call, request.tool_call_id)),
      request.request_id,
      data,
    ),
  );
}

/** An answer replaces its request's part data in place. */
function applyPermissionResolved(entries: TranscriptEntries, row: LedgerRow): void {
  const resolution = row.content as PermissionResolutionRecord;
  const key = `tool-${resolution.tool_call_id}`;
  entries.upsert(row, "tool", key, (old) => {
    const message = old ?? foldToolCall(key, undefined, { toolCallId: resolution.tool_call_id });
    const previous = message.parts.find(
      (part): part is PermissionPart =>
        part.type === "data-compozy-permission" && part.id === resolution.request_id,
    )?.data as PermissionData | undefined;
    return foldPermission(
      message,
      resolution.request_id,
      permissionResolvedData(previous, resolution, row.created_at),
    );
  });
}

function applyRow(entries: TranscriptEntries, streaming: StreamingMessages, row: LedgerRow) {
  switch (row.type) {
    case "input":
      entries.create(row, "user", inputMessage(row));
      return;
    case "agent.message_chunk":
      streaming.apply(row, "text");
      return;
    case "agent.thought_chunk":
      streaming.apply(row, "reasoning");
      return;
    case "tool_call":
    case "tool_call_update": {
      const fields = row.content as ToolFields;
      const key = `tool-${fields.toolCallId}`;
      entries.upsert(row, "tool", key, (old) => foldToolCall(key, old, fields));
      return;
    }
    case "user.message_chunk": {
      const key = userChunkKey(entries, row);
      entries.upsert(row, "user", key, (old) =>
        appendUserChunk(key, old, row.content.content as ContentBlock),
      );
      return;
    }
    case "permission.requested":
      applyPermissionRequested(entries, row);
      return;
    case "permission.resolved":
      applyPermissionResolved(entries, row);
      return;
    case "compaction": {
      const snapshot = row.content as CompactionSnapshot;
      const key = `compaction-${snapshot.compaction_id}`;
      entries.upsert(row, "compaction", key, (old) =>
        foldCompaction(key, old, snapshot, row.created_at),
      );
      return;
    }
    default:
      if (EVENT_ROW_TYPES.has(row.type)) {
        entries.create(row, "event", eventMessage(`event-${row.sequence}`, row.type, row.content));
      }
    // usage, prompt.completed, available_commands, compaction.chunk, the fired and
    // requested events are history only: they feed the meter, not the timeline.
  }
}

export function createTranscriptProjection(db: Database.Database): TranscriptProjection {
  // Search is kept in step here, in the append's transaction (ADR 0230).
  const search = createSearchIndex(db);
  const entries = createTranscriptEntries(db, search);
  const streaming = createStreamingMessages(db, entries, search);
  return {
    forget(sessionId) {
      entries.forget(sessionId);
      streaming.forget(sessionId);
    },
    apply: (row) => applyRow(entries, streaming, row),
  };
}
