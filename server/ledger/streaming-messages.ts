// The chunk path of the transcript projection (ADR 0042): a streaming assistant message is
// its stored JSON plus a tail of text not folded in yet, kept as small segment rows, so a
// chunk writes one small row whatever the message's size. The tail is folded into the
// message only when the part kind changes. What the path knows of each session's recent
// messages is kept in memory, so a chunk does not read its message.
import type Database from "better-sqlite3";
import type { DaemonMessage } from "../../src/contract/transcript";
import type { ContentBlock } from "../domain/acp-update";
import type { LedgerRow } from "../domain/session-recorder-api";
import { appendChunk, chunkText, emptyAssistantMessage, withTail } from "../domain/transcript-fold";
import type { SearchIndex } from "./search-index";
import type { EntryHead, TranscriptEntries } from "./transcript-entries";

type PartKind = "text" | "reasoning";

/**
 * What the chunk path knows of an assistant entry without reading its message (ADR 0042):
 * the unfolded tail that continues its last part.
 */
type StreamState = EntryHead & {
  /** The kind of the part the tail continues; null while the entry has no tail. */
  tailPart: PartKind | null;
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

export type StreamingMessages = {
  /** An agent message or thought chunk: extends its message's tail, or folds it in. */
  apply(row: LedgerRow, partKind: PartKind): void;
  /** Drops what is cached for a session (its transaction rolled back). */
  forget(sessionId: string): void;
};

type TailStatements = ReturnType<typeof prepareTailStatements>;

function prepareTailStatements(db: Database.Database) {
  return {
    tailOf: db.prepare<[string, string], { part_type: string }>(
      "SELECT part_type FROM entry_tails WHERE session_id = ? AND entry_key = ?",
    ),
    segmentsOf: db.prepare<[string, string], { seq: number; chars: number }>(
      `SELECT seq, length(text) AS chars FROM entry_tail_segments
       WHERE session_id = ? AND entry_key = ? ORDER BY seq`,
    ),
    tailText: db
      .prepare<[string, string], string | null>(
        `SELECT group_concat(text, '' ORDER BY seq) FROM entry_tail_segments
         WHERE session_id = ? AND entry_key = ?`,
      )
      .pluck(true),
    segmentText: db
      .prepare<[string, string, number], string>(
        "SELECT text FROM entry_tail_segments WHERE session_id = ? AND entry_key = ? AND seq = ?",
      )
      .pluck(true),
    extendSegment: db.prepare(
      `UPDATE entry_tail_segments SET text = text || ?
       WHERE session_id = ? AND entry_key = ? AND seq = ?`,
    ),
    addSegment: db.prepare(
      "INSERT INTO entry_tail_segments (session_id, entry_key, seq, text) VALUES (?, ?, ?, ?)",
    ),
    clearSegments: db.prepare(
      "DELETE FROM entry_tail_segments WHERE session_id = ? AND entry_key = ?",
    ),
    setTail: db.prepare(
      `INSERT INTO entry_tails (session_id, entry_key, part_type, text) VALUES (?, ?, ?, '')
       ON CONFLICT (session_id, entry_key) DO UPDATE SET part_type = excluded.part_type`,
    ),
    // Only the sequence changes: SQLite then leaves the message's overflow pages alone.
    touch: db.prepare("UPDATE entries SET sequence = ? WHERE session_id = ? AND entry_key = ?"),
  };
}

/** The stream states of each session's recent messages; the least recent goes first. */
function createStreamStates() {
  const bySession = new Map<string, Map<string, StreamState>>();
  return {
    get: (sessionId: string, key: string) => bySession.get(sessionId)?.get(key),
    remember(sessionId: string, state: StreamState): void {
      let states = bySession.get(sessionId);
      if (states === undefined) {
        states = new Map();
        bySession.set(sessionId, states);
      }
      states.delete(state.entry_key);
      states.set(state.entry_key, state);
      if (states.size > STATES_PER_SESSION) {
        const oldest = states.keys().next().value;
        if (oldest !== undefined) states.delete(oldest);
      }
    },
    forget(sessionId: string): void {
      bySession.delete(sessionId);
    },
  };
}

/** The state of a stored entry, read from its rows (O(message)). */
function readState(
  tails: TailStatements,
  entries: TranscriptEntries,
  sessionId: string,
  key: string,
): StreamState | undefined {
  const stored = entries.stored(sessionId, key);
  if (stored === undefined) return undefined;
  const tail = tails.tailOf.get(sessionId, key);
  const segments = tails.segmentsOf.all(sessionId, key);
  const last = segments[segments.length - 1];
  return {
    entry_key: stored.entry_key,
    kind: stored.kind,
    turn_id: stored.turn_id,
    tailPart: tail === undefined ? null : (tail.part_type as PartKind),
    tailChars: segments.reduce((sum, segment) => sum + segment.chars, 0),
    segment: last?.seq ?? -1,
    segmentChars: last?.chars ?? 0,
  };
}

/** Appends to the tail: one small row written, whatever the message's size. */
function appendToTail(
  tails: TailStatements,
  search: SearchIndex,
  row: LedgerRow,
  state: StreamState,
  text: string,
): void {
  const { session_id: sessionId } = row;
  if (state.segment >= 0 && state.segmentChars + text.length <= SEGMENT_MAX_CHARS) {
    tails.extendSegment.run(text, sessionId, state.entry_key, state.segment);
    state.segmentChars += text.length;
    // Reasoning is not searchable (see searchableText); a text segment is re-read, ≤ 4 KiB.
    if (state.tailPart === "text") {
      const whole = tails.segmentText.get(sessionId, state.entry_key, state.segment) ?? text;
      search.segment(sessionId, state.entry_key, state.segment, whole);
    }
  } else {
    state.segment += 1;
    tails.addSegment.run(sessionId, state.entry_key, state.segment, text);
    state.segmentChars = text.length;
    if (state.tailPart === "text") search.segment(sessionId, state.entry_key, state.segment, text);
  }
  state.tailChars += text.length;
  tails.touch.run(row.sequence, sessionId, state.entry_key);
}

/** Folds the tail and `block` into the stored message: O(message), once per part. */
function foldTail(
  tails: TailStatements,
  entries: TranscriptEntries,
  search: SearchIndex,
  row: LedgerRow,
  state: StreamState,
  partKind: PartKind,
  block: ContentBlock,
): void {
  const { session_id: sessionId } = row;
  const stored = entries.stored(sessionId, state.entry_key);
  if (stored === undefined) throw new Error(`entry ${state.entry_key} vanished`);
  const message = withTail(
    JSON.parse(stored.message) as DaemonMessage,
    state.tailChars > 0 ? tails.tailText.get(sessionId, state.entry_key) : null,
  );
  const folded = appendChunk(message, partKind, block);
  const json = JSON.stringify(folded);
  entries.replace(row, folded, json);
  if (state.tailChars > 0) {
    tails.clearSegments.run(sessionId, state.entry_key);
    search.segmentsCleared(sessionId, state.entry_key);
  }
  state.tailChars = 0;
  state.segment = -1;
  state.segmentChars = 0;
  // appendChunk leaves a part of `partKind` last: a tail continues that part.
  if (state.tailPart !== null || json.length > INLINE_MAX_CHARS) {
    tails.setTail.run(sessionId, state.entry_key, partKind);
    state.tailPart = partKind;
  }
}

export function createStreamingMessages(
  db: Database.Database,
  entries: TranscriptEntries,
  search: SearchIndex,
): StreamingMessages {
  const tails = prepareTailStatements(db);
  const states = createStreamStates();

  /** The state of a stored entry, read once when it is not cached. */
  function streamState(sessionId: string, key: string): StreamState | undefined {
    const cached = states.get(sessionId, key);
    if (cached !== undefined) return cached;
    const state = readState(tails, entries, sessionId, key);
    if (state !== undefined) states.remember(sessionId, state);
    return state;
  }

  return {
    forget: states.forget,
    apply(row, partKind) {
      const block = row.content.content as ContentBlock;
      const messageId = row.content.message_id;
      let state: StreamState | undefined;
      let key: string;
      if (typeof messageId === "string") {
        key = `msg-${messageId}`;
        state = streamState(row.session_id, key);
      } else {
        const last = entries.newest(row.session_id);
        key = `asst-${row.sequence}`;
        if (last !== undefined && last.kind === "assistant" && last.turn_id === row.turn_id) {
          key = last.entry_key;
          state = streamState(row.session_id, key);
        }
      }
      if (state === undefined) {
        entries.create(row, "assistant", appendChunk(emptyAssistantMessage(key), partKind, block));
        states.remember(row.session_id, {
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
      if (state.tailPart === partKind) appendToTail(tails, search, row, state, chunkText(block));
      else foldTail(tails, entries, search, row, state, partKind, block);
    },
  };
}
