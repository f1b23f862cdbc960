// The write side of the transcript read model (docs/ledger.md §4): each appended row
// updates at most one entry, inside the append's transaction. An entry is keyed by what
// it stands for (a tool call id, a compaction id, an agent message id, or the sequence
// that started it), which also makes its message id stable.
import type Database from "better-sqlite3";
import type { DaemonMessage, PermissionData, PermissionPart } from "../../src/contract/transcript";
import type { ContentBlock } from "../domain/acp-update";
import type { CompactionSnapshot } from "../domain/compaction-intake";
import type {
  LedgerRow,
  PermissionRequestRecord,
  PermissionResolutionRecord,
} from "../domain/session-recorder-api";
import {
  appendChunk,
  appendUserChunk,
  chunkText,
  type EntryKind,
  EVENT_ROW_TYPES,
  emptyAssistantMessage,
  eventMessage,
  foldCompaction,
  foldPermission,
  foldToolCall,
  permissionRequestData,
  permissionResolvedData,
  type ToolFields,
  toolFieldsOfRequest,
  userMessage,
  withTail,
} from "../domain/transcript-fold";
import { createSearchIndex } from "./search-index";

type StoredEntry = { entry_key: string; kind: EntryKind; turn_id: string | null; message: string };
type EntryHead = { entry_key: string; kind: EntryKind; turn_id: string | null };

/**
 * What the chunk path knows of an assistant entry without reading its message (ADR 0042):
 * the unfolded tail that continues its last part.
 */
type StreamState = EntryHead & {
  /** The kind of the part the tail continues; null while the entry has no tail. */
  tailPart: "text" | "reasoning" | null;
  tailChars: number;
  /** The newest segment's seq (-1: none yet) and its length. */
  segment: number;
  segmentChars: number;
};

/** A message shorter than this is simply rewritten per chunk; a longer one gets a tail. */
const INLINE_MAX_CHARS = 2000;
/** A chunk extends the newest tail segment up to this size, else starts a new one. */
const SEGMENT_MAX_CHARS = 4096;
/** Stream states kept per session: the messages of a turn, not of the whole history. */
const STATES_PER_SESSION = 8;

export type TranscriptProjection = {
  apply(row: LedgerRow): void;
  /** Drops what is cached for a session (its transaction rolled back). */
  forget(sessionId: string): void;
};

export function createTranscriptProjection(db: Database.Database): TranscriptProjection {
  const byKey = db.prepare<[string, string], StoredEntry>(
    "SELECT entry_key, kind, turn_id, message FROM entries WHERE session_id = ? AND entry_key = ?",
  );
  // The message column is last in the row: reading the columns before it skips its pages.
  const newestHead = db.prepare<[string], EntryHead>(
    `SELECT entry_key, kind, turn_id FROM entries WHERE session_id = ?
     ORDER BY start_sequence DESC LIMIT 1`,
  );
  const tailOf = db.prepare<[string, string], { part_type: string }>(
    "SELECT part_type FROM entry_tails WHERE session_id = ? AND entry_key = ?",
  );
  const segmentsOf = db.prepare<[string, string], { seq: number; chars: number }>(
    `SELECT seq, length(text) AS chars FROM entry_tail_segments
     WHERE session_id = ? AND entry_key = ? ORDER BY seq`,
  );
  const tailText = db
    .prepare<[string, string], string | null>(
      `SELECT group_concat(text, '' ORDER BY seq) FROM entry_tail_segments
       WHERE session_id = ? AND entry_key = ?`,
    )
    .pluck(true);
  const extendSegment = db.prepare(
    `UPDATE entry_tail_segments SET text = text || ?
     WHERE session_id = ? AND entry_key = ? AND seq = ?`,
  );
  const addSegment = db.prepare(
    "INSERT INTO entry_tail_segments (session_id, entry_key, seq, text) VALUES (?, ?, ?, ?)",
  );
  const clearSegments = db.prepare(
    "DELETE FROM entry_tail_segments WHERE session_id = ? AND entry_key = ?",
  );
  const setTail = db.prepare(
    `INSERT INTO entry_tails (session_id, entry_key, part_type, text) VALUES (?, ?, ?, '')
     ON CONFLICT (session_id, entry_key) DO UPDATE SET part_type = excluded.part_type`,
  );
  // Only the sequence changes: SQLite then leaves the message's overflow pages alone.
  const touch = db.prepare(
    "UPDATE entries SET sequence = ? WHERE session_id = ? AND entry_key = ?",
  );
  const insert = db.prepare(
    `INSERT INTO entries (session_id, entry_key, kind, turn_id, start_sequence, sequence, message)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const update = db.prepare(
    "UPDATE entries SET sequence = ?, message = ? WHERE session_id = ? AND entry_key = ?",
  );
  const segmentText = db
    .prepare<[string, string, number], string>(
      "SELECT text FROM entry_tail_segments WHERE session_id = ? AND entry_key = ? AND seq = ?",
    )
    .pluck(true);
  // Search is kept in step here, in the append's transaction (ADR 0230).
  const search = createSearchIndex(db);

  // Per session: the newest entry's head, and the stream states of its recent messages.
  const newestBySession = new Map<string, EntryHead>();
  const statesBySession = new Map<string, Map<string, StreamState>>();

  function rememberState(sessionId: string, state: StreamState): void {
    let states = statesBySession.get(sessionId);
    if (states === undefined) {
      states = new Map();
      statesBySession.set(sessionId, states);
    }
    states.delete(state.entry_key);
    states.set(state.entry_key, state);
    if (states.size > STATES_PER_SESSION) {
      const oldest = states.keys().next().value;
      if (oldest !== undefined) states.delete(oldest);
    }
  }

  /** The state of a stored entry, read once (O(message)) when it is not cached. */
  function streamState(sessionId: string, key: string): StreamState | undefined {
    const cached = statesBySession.get(sessionId)?.get(key);
    if (cached !== undefined) return cached;
    const stored = byKey.get(sessionId, key);
    if (stored === undefined) return undefined;
    const tail = tailOf.get(sessionId, key);
    const segments = segmentsOf.all(sessionId, key);
    const last = segments[segments.length - 1];
    const state: StreamState = {
      entry_key: stored.entry_key,
      kind: stored.kind,
      turn_id: stored.turn_id,
      tailPart: tail === undefined ? null : (tail.part_type as "text" | "reasoning"),
      tailChars: segments.reduce((sum, segment) => sum + segment.chars, 0),
      segment: last?.seq ?? -1,
      segmentChars: last?.chars ?? 0,
    };
    rememberState(sessionId, state);
    return state;
  }

  function newest(sessionId: string): EntryHead | undefined {
    const cached = newestBySession.get(sessionId);
    if (cached !== undefined) return cached;
    const head = newestHead.get(sessionId);
    if (head !== undefined) newestBySession.set(sessionId, head);
    return head;
  }

  function create(row: LedgerRow, kind: EntryKind, message: DaemonMessage): void {
    const json = JSON.stringify(message);
    insert.run(row.session_id, message.id, kind, row.turn_id, row.sequence, row.sequence, json);
    search.message(row.session_id, message.id, message);
    newestBySession.set(row.session_id, { entry_key: message.id, kind, turn_id: row.turn_id });
  }

  function replace(row: LedgerRow, message: DaemonMessage): void {
    update.run(row.sequence, JSON.stringify(message), row.session_id, message.id);
    search.message(row.session_id, message.id, message);
  }

  function upsert(
    row: LedgerRow,
    kind: EntryKind,
    key: string,
    fold: (old?: DaemonMessage) => DaemonMessage,
  ): void {
    const stored = byKey.get(row.session_id, key);
    if (stored === undefined) create(row, kind, fold());
    else replace(row, fold(JSON.parse(stored.message) as DaemonMessage));
  }

  /** Appends to the tail: one small row written, whatever the message's size. */
  function appendToTail(row: LedgerRow, state: StreamState, text: string): void {
    const { session_id: sessionId } = row;
    if (state.segment >= 0 && state.segmentChars + text.length <= SEGMENT_MAX_CHARS) {
      extendSegment.run(text, sessionId, state.entry_key, state.segment);
      state.segmentChars += text.length;
      // Reasoning is not searchable (see searchableText); a text segment is re-read, ≤ 4 KiB.
      if (state.tailPart === "text") {
        const whole = segmentText.get(sessionId, state.entry_key, state.segment) ?? text;
        search.segment(sessionId, state.entry_key, state.segment, whole);
      }
    } else {
      state.segment += 1;
      addSegment.run(sessionId, state.entry_key, state.segment, text);
      state.segmentChars = text.length;
      if (state.tailPart === "text")
        search.segment(sessionId, state.entry_key, state.segment, text);
    }
    state.tailChars += text.length;
    touch.run(row.sequence, sessionId, state.entry_key);
  }

  /** Folds the tail and `block` into the stored message: O(message), once per part. */
  function fold(
    row: LedgerRow,
    state: StreamState,
    partKind: "text" | "reasoning",
    block: ContentBlock,
  ): void {
    const { session_id: sessionId } = row;
    const stored = byKey.get(sessionId, state.entry_key);
    if (stored === undefined) throw new Error(`entry ${state.entry_key} vanished`);
    const message = withTail(
      JSON.parse(stored.message) as DaemonMessage,
      state.tailChars > 0 ? tailText.get(sessionId, state.entry_key) : null,
    );
    const folded = appendChunk(message, partKind, block);
    const json = JSON.stringify(folded);
    update.run(row.sequence, json, sessionId, state.entry_key);
    search.message(sessionId, state.entry_key, folded);
    if (state.tailChars > 0) {
      clearSegments.run(sessionId, state.entry_key);
      search.segmentsCleared(sessionId, state.entry_key);
    }
    state.tailChars = 0;
    state.segment = -1;
    state.segmentChars = 0;
    // appendChunk leaves a part of `partKind` last: a tail continues that part.
    if (state.tailPart !== null || json.length > INLINE_MAX_CHARS) {
      setTail.run(sessionId, state.entry_key, partKind);
      state.tailPart = partKind;
    }
  }

  function applyChunk(row: LedgerRow, partKind: "text" | "reasoning"): void {
    const block = row.content.content as ContentBlock;
    const messageId = row.content.message_id;
    let state: StreamState | undefined;
    let key: string;
    if (typeof messageId === "string") {
      key = `msg-${messageId}`;
      state = streamState(row.session_id, key);
    } else {
      const last = newest(row.session_id);
      key = `asst-${row.sequence}`;
      if (last !== undefined && last.kind === "assistant" && last.turn_id === row.turn_id) {
        key = last.entry_key;
        state = streamState(row.session_id, key);
      }
    }
    if (state === undefined) {
      create(row, "assistant", appendChunk(emptyAssistantMessage(key), partKind, block));
      rememberState(row.session_id, {
        entry_key: key,
        kind: "assistant",
        turn_id: row.turn_id,
        tailPart: null,
        tailChars: 0,
        segment: -1,
        segmentChars: 0,
      });
      return;
    }
    // The tail is folded in only when the part kind changes, so the entry row stays small
    // while a message streams: rewriting it (even just its sequence) copies the whole row.
    if (state.tailPart === partKind) appendToTail(row, state, chunkText(block));
    else fold(row, state, partKind, block);
  }

  return {
    forget(sessionId) {
      newestBySession.delete(sessionId);
      statesBySession.delete(sessionId);
    },
    apply(row) {
      switch (row.type) {
        case "input":
          create(
            row,
            "user",
            userMessage(
              // The client's own message id, as CompozyOS names a prompt's entry (ADR 0190).
              typeof row.content.message_id === "string" && row.content.message_id !== ""
                ? row.content.message_id
                : `user-${row.sequence}`,
              String(row.content.text),
              row.content.maintenance === true,
              {
                turn_id: row.turn_id,
                message_id: row.content.message_id,
                typed: row.content.typed === true,
                requested_by: row.content.requested_by,
              },
            ),
          );
          return;
        case "agent.message_chunk":
          applyChunk(row, "text");
          return;
        case "agent.thought_chunk":
          applyChunk(row, "reasoning");
          return;
        case "tool_call":
        case "tool_call_update": {
          const fields = row.content as ToolFields;
          const key = `tool-${fields.toolCallId}`;
          upsert(row, "tool", key, (old) => foldToolCall(key, old, fields));
          return;
        }
        case "user.message_chunk": {
          const messageId = row.content.message_id;
          let key = typeof messageId === "string" ? `umsg-${messageId}` : `uchunk-${row.sequence}`;
          if (typeof messageId !== "string") {
            const last = newest(row.session_id);
            if (last?.entry_key.startsWith("uchunk-") && last.turn_id === row.turn_id) {
              key = last.entry_key;
            }
          }
          upsert(row, "user", key, (old) =>
            appendUserChunk(key, old, row.content.content as ContentBlock),
          );
          return;
        }
        case "permission.requested": {
          const request = row.content as PermissionRequestRecord;
          const key = `tool-${request.tool_call_id}`;
          const data = permissionRequestData(row.session_id, row.turn_id, request, row.created_at);
          upsert(row, "tool", key, (old) =>
            foldPermission(
              old ??
                foldToolCall(
                  key,
                  undefined,
                  toolFieldsOfRequest(request.tool_call, request.tool_call_id),
                ),
              request.request_id,
              data,
            ),
          );
          return;
        }
        case "permission.resolved": {
          const resolution = row.content as PermissionResolutionRecord;
          const key = `tool-${resolution.tool_call_id}`;
          upsert(row, "tool", key, (old) => {
            const message =
              old ?? foldToolCall(key, undefined, { toolCallId: resolution.tool_call_id });
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
          return;
        }
        case "compaction": {
          const snapshot = row.content as CompactionSnapshot;
          const key = `compaction-${snapshot.compaction_id}`;
          upsert(row, "compaction", key, (old) =>
            foldCompaction(key, old, snapshot, row.created_at),
          );
          return;
        }
        default:
          if (EVENT_ROW_TYPES.has(row.type)) {
            create(row, "event", eventMessage(`event-${row.sequence}`, row.type, row.content));
          }
        // usage, prompt.completed, available_commands, compaction.chunk, the fired and
        // requested events are history only: they feed the meter, not the timeline.
      }
    },
  };
}
