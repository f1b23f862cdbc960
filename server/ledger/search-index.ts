// The write side of transcript search (ADR 0230): an FTS5 index over each entry's
// searchable text, written in the projection's own transaction so it never lags the
// transcript. An entry is indexed as pieces: piece 0 is its stored message, and each
// segment of a streaming text tail (ADR 0042) is one more piece, so a chunk re-indexes at
// most one 4 KiB segment, never the whole message.
import type Database from "better-sqlite3";
import { searchableText } from "../../src/contract/search";
import type { DaemonMessage } from "../../src/contract/transcript";

/**
 * Where an indexed piece sits, packed into one integer that is both `search_pieces.id` and
 * the FTS5 rowid: the session's number, the entry's start sequence, the piece. FTS5 walks
 * its matches in rowid order, so a session's matches come as one rowid range, already in
 * transcript order, with no lookup per match (ADR 0232).
 */
export const PIECE_BITS = 12;
export const SEQUENCE_BITS = 29;
export const SESSION_BITS = 22;
const SESSION_SHIFT = BigInt(PIECE_BITS + SEQUENCE_BITS);

/** The id of a piece, or `undefined` when a number is past its field (it is not indexed). */
export function pieceIdOf(session: number, start: number, piece: number): bigint | undefined {
  if (session >= 2 ** SESSION_BITS || start >= 2 ** SEQUENCE_BITS || piece >= 2 ** PIECE_BITS) {
    return undefined;
  }
  return (BigInt(session) << SESSION_SHIFT) | (BigInt(start) << BigInt(PIECE_BITS)) | BigInt(piece);
}

/** The rowids of a session's pieces: `[first, end)`. */
export function sessionRowids(session: number): [bigint, bigint] {
  return [BigInt(session) << SESSION_SHIFT, BigInt(session + 1) << SESSION_SHIFT];
}

/** The schema of the index; part of a migration: never edit, add a migration instead. */
const SEARCH_INDEX_SCHEMA = `
  CREATE TABLE search_sessions (
    num INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL UNIQUE
  ) STRICT;
  CREATE TABLE search_pieces (
    -- pieceIdOf(session number, start sequence, piece): the FTS5 row's rowid too.
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL,
    entry_key TEXT NOT NULL,
    piece INTEGER NOT NULL,
    start_sequence INTEGER NOT NULL,
    UNIQUE (session_id, entry_key, piece)
  ) STRICT;
  CREATE VIRTUAL TABLE entry_search USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
`;

// The snippet's match markers: control characters no indexed text keeps.
export const MARK_OPEN = "\u0002";
export const MARK_CLOSE = "\u0003";
const MARKS = new RegExp(`[${MARK_OPEN}${MARK_CLOSE}]`, "g");

export type SearchIndex = {
  /** The stored message of an entry changed (or was created). */
  message(sessionId: string, entryKey: string, message: DaemonMessage): void;
  /** A text tail segment was written: `text` is its whole text now. */
  segment(sessionId: string, entryKey: string, seq: number, text: string): void;
  /** The tail was folded into the message: its segments are gone. */
  segmentsCleared(sessionId: string, entryKey: string): void;
  /** The session is being deleted. */
  sessionDeleted(sessionId: string): void;
};

export function createSearchIndex(db: Database.Database): SearchIndex {
  // Ids are past 2^53: read as BigInt, never as a rounded number.
  const pieceId = db
    .prepare<[string, string, number], bigint>(
      "SELECT id FROM search_pieces WHERE session_id = ? AND entry_key = ? AND piece = ?",
    )
    .pluck(true)
    .safeIntegers(true);
  const startOf = db
    .prepare<[string, string], number>(
      "SELECT start_sequence FROM entries WHERE session_id = ? AND entry_key = ?",
    )
    .pluck(true);
  const addPiece = db.prepare(
    "INSERT INTO search_pieces (id, session_id, entry_key, piece, start_sequence) VALUES (?, ?, ?, ?, ?)",
  );
  const numberOf = db
    .prepare<[string], number>("SELECT num FROM search_sessions WHERE session_id = ?")
    .pluck(true);
  const addNumber = db.prepare("INSERT INTO search_sessions (session_id) VALUES (?)");
  const dropNumber = db.prepare("DELETE FROM search_sessions WHERE session_id = ?");
  const insertText = db.prepare("INSERT INTO entry_search (rowid, text) VALUES (?, ?)");
  const updateText = db.prepare("UPDATE entry_search SET text = ? WHERE rowid = ?");
  const tailPieces = db
    .prepare<[string, string], bigint>(
      "SELECT id FROM search_pieces WHERE session_id = ? AND entry_key = ? AND piece > 0",
    )
    .pluck(true)
    .safeIntegers(true);
  const sessionPieces = db
    .prepare<[string], bigint>("SELECT id FROM search_pieces WHERE session_id = ?")
    .pluck(true)
    .safeIntegers(true);
  const deleteText = db.prepare("DELETE FROM entry_search WHERE rowid = ?");
  const deletePiece = db.prepare("DELETE FROM search_pieces WHERE id = ?");

  function write(sessionId: string, entryKey: string, piece: number, raw: string): void {
    const text = raw.replace(MARKS, " ");
    const id = pieceId.get(sessionId, entryKey, piece);
    if (id !== undefined) {
      updateText.run(text, id);
      return;
    }
    if (text.trim() === "") return;
    // A new piece is rare (an entry's first text, a tail's new segment): one key lookup.
    const start = startOf.get(sessionId, entryKey);
    if (start === undefined) throw new Error(`entry ${entryKey} is not in the transcript`);
    const session = numberOf.get(sessionId) ?? Number(addNumber.run(sessionId).lastInsertRowid);
    const created = pieceIdOf(session, start, piece);
    // Past a field's range (ADR 0232) the piece stays out of the index; the ledger has it.
    if (created === undefined) return;
    addPiece.run(created, sessionId, entryKey, piece, start);
    insertText.run(created, text);
  }

  function drop(ids: readonly bigint[]): void {
    for (const id of ids) {
      deleteText.run(id);
      deletePiece.run(id);
    }
  }

  return {
    message(sessionId, entryKey, message) {
      write(sessionId, entryKey, 0, searchableText(message));
    },
    segment(sessionId, entryKey, seq, text) {
      write(sessionId, entryKey, seq + 1, text);
    },
    segmentsCleared(sessionId, entryKey) {
      drop(tailPieces.all(sessionId, entryKey));
    },
    sessionDeleted(sessionId) {
      drop(sessionPieces.all(sessionId));
      dropNumber.run(sessionId);
    },
  };
}

/** Builds the index of an existing ledger afresh (the migration that adds it). */
export function rebuildSearchIndex(db: Database.Database): void {
  db.exec(`
    DROP TABLE IF EXISTS entry_search;
    DROP TABLE IF EXISTS search_pieces;
    DROP TABLE IF EXISTS search_sessions;
  `);
  db.exec(SEARCH_INDEX_SCHEMA);
  const index = createSearchIndex(db);
  // In batches: better-sqlite3 runs no other statement while an iterator is open.
  const batch = db.prepare<
    [number],
    { id: number; session_id: string; entry_key: string; message: string }
  >(
    "SELECT rowid AS id, session_id, entry_key, message FROM entries WHERE rowid > ? ORDER BY rowid LIMIT 500",
  );
  for (let after = 0; ; ) {
    const rows = batch.all(after);
    if (rows.length === 0) break;
    for (const row of rows) {
      index.message(row.session_id, row.entry_key, JSON.parse(row.message) as DaemonMessage);
      after = row.id;
    }
  }
  const segments = db.prepare<
    [],
    { session_id: string; entry_key: string; seq: number; text: string }
  >(
    `SELECT s.session_id, s.entry_key, s.seq, s.text FROM entry_tail_segments s
     JOIN entry_tails t ON t.session_id = s.session_id AND t.entry_key = s.entry_key
     WHERE t.part_type = 'text'`,
  );
  for (const row of segments.all()) index.segment(row.session_id, row.entry_key, row.seq, row.text);
}
