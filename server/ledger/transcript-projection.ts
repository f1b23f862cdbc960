// The write side of the transcript read model (acp-intake.md §4): each appended row
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

type StoredEntry = { entry_key: string; kind: EntryKind; turn_id: string | null; message: string };
/** An assistant entry a chunk may extend, with its unfolded tail when it has one. */
type ChunkTarget = StoredEntry & { part_type: string | null; tail: string | null };

/** Up to this many characters of streamed text collect in the tail before it is folded. */
const TAIL_MAX_CHARS = 3000;
/** A message shorter than this is simply rewritten per chunk; a longer one gets a tail. */
const INLINE_MAX_CHARS = 2000;

export type TranscriptProjection = { apply(row: LedgerRow): void };

export function createTranscriptProjection(db: Database.Database): TranscriptProjection {
  const byKey = db.prepare<[string, string], StoredEntry>(
    "SELECT entry_key, kind, turn_id, message FROM entries WHERE session_id = ? AND entry_key = ?",
  );
  const chunkTargetColumns = `e.entry_key, e.kind, e.turn_id, e.message, t.part_type, t.text AS tail
     FROM entries e LEFT JOIN entry_tails t
       ON t.session_id = e.session_id AND t.entry_key = e.entry_key`;
  const targetByKey = db.prepare<[string, string], ChunkTarget>(
    `SELECT ${chunkTargetColumns} WHERE e.session_id = ? AND e.entry_key = ?`,
  );
  // The entry first received last: a chunk without a message id may only continue it.
  const newest = db.prepare<[string], ChunkTarget>(
    `SELECT ${chunkTargetColumns} WHERE e.session_id = ? ORDER BY e.start_sequence DESC LIMIT 1`,
  );
  const appendTail = db.prepare(
    "UPDATE entry_tails SET text = text || ? WHERE session_id = ? AND entry_key = ?",
  );
  const resetTail = db.prepare(
    `INSERT INTO entry_tails (session_id, entry_key, part_type, text) VALUES (?, ?, ?, '')
     ON CONFLICT (session_id, entry_key) DO UPDATE SET part_type = excluded.part_type, text = ''`,
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

  function create(row: LedgerRow, kind: EntryKind, message: DaemonMessage): void {
    insert.run(
      row.session_id,
      message.id,
      kind,
      row.turn_id,
      row.sequence,
      row.sequence,
      JSON.stringify(message),
    );
  }

  function replace(row: LedgerRow, message: DaemonMessage): void {
    update.run(row.sequence, JSON.stringify(message), row.session_id, message.id);
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

  function applyChunk(row: LedgerRow, partKind: "text" | "reasoning"): void {
    const block = row.content.content as ContentBlock;
    const messageId = row.content.message_id;
    let target: ChunkTarget | undefined;
    let key: string;
    if (typeof messageId === "string") {
      key = `msg-${messageId}`;
      target = targetByKey.get(row.session_id, key);
    } else {
      const last = newest.get(row.session_id);
      key = `asst-${row.sequence}`;
      if (last !== undefined && last.kind === "assistant" && last.turn_id === row.turn_id) {
        target = last;
        key = last.entry_key;
      }
    }
    if (target === undefined) {
      create(row, "assistant", appendChunk(emptyAssistantMessage(key), partKind, block));
      return;
    }
    const text = chunkText(block);
    if (
      target.part_type === partKind &&
      target.tail !== null &&
      target.tail.length + text.length <= TAIL_MAX_CHARS
    ) {
      appendTail.run(text, row.session_id, key);
      touch.run(row.sequence, row.session_id, key);
      return;
    }
    // Fold: the stored message, its tail and this chunk become the new stored message.
    const message = JSON.parse(target.message) as DaemonMessage;
    const json = JSON.stringify(appendChunk(withTail(message, target.tail), partKind, block));
    update.run(row.sequence, json, row.session_id, key);
    // appendChunk leaves a part of `partKind` last: the tail continues that part.
    if (target.part_type !== null || json.length > INLINE_MAX_CHARS) {
      resetTail.run(row.session_id, key, partKind);
    }
  }

  return {
    apply(row) {
      switch (row.type) {
        case "input":
          create(
            row,
            "user",
            userMessage(
              `user-${row.sequence}`,
              String(row.content.text),
              row.content.maintenance === true,
              { turn_id: row.turn_id, message_id: row.content.message_id },
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
            const last = newest.get(row.session_id);
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
