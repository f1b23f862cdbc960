// The transcript's entries table (docs/ledger.md §4): one row per message, keyed by what it
// stands for, created or rewritten whole inside the append's transaction and kept in step
// with search (ADR 0230). Each session's newest entry head is kept in memory: the chunk
// paths ask for it on every chunk.
import type Database from "better-sqlite3";
import type { DaemonMessage } from "../../src/contract/transcript";
import type { LedgerRow } from "../domain/session-recorder-api";
import type { EntryKind } from "../domain/transcript-fold";
import type { SearchIndex } from "./search-index";

type StoredEntry = {
  entry_key: string;
  kind: EntryKind;
  turn_id: string | null;
  message: string;
};
export type EntryHead = { entry_key: string; kind: EntryKind; turn_id: string | null };

export type TranscriptEntries = {
  stored(sessionId: string, key: string): StoredEntry | undefined;
  /** The head of the session's newest entry (by start sequence). */
  newest(sessionId: string): EntryHead | undefined;
  /** A new entry, keyed by its message id, started by `row`. */
  create(row: LedgerRow, kind: EntryKind, message: DaemonMessage): void;
  /** Rewrites the entry of `message.id` (`json`: the message as JSON, when already built). */
  replace(row: LedgerRow, message: DaemonMessage, json?: string): void;
  /** Creates the entry of `key`, or rewrites it with `fold` of its stored message. */
  upsert(
    row: LedgerRow,
    kind: EntryKind,
    key: string,
    fold: (old?: DaemonMessage) => DaemonMessage,
  ): void;
  /** Drops what is cached for a session (its transaction rolled back). */
  forget(sessionId: string): void;
};

export function createTranscriptEntries(
  db: Database.Database,
  search: SearchIndex,
): TranscriptEntries {
  const byKey = db.prepare<[string, string], StoredEntry>(
    "SELECT entry_key, kind, turn_id, message FROM entries WHERE session_id = ? AND entry_key = ?",
  );
  // The message column is last in the row: reading the columns before it skips its pages.
  const newestHead = db.prepare<[string], EntryHead>(
    `SELECT entry_key, kind, turn_id FROM entries WHERE session_id = ?
     ORDER BY start_sequence DESC LIMIT 1`,
  );
  const insert = db.prepare(
    `INSERT INTO entries (session_id, entry_key, kind, turn_id, start_sequence, sequence, message)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const update = db.prepare(
    "UPDATE entries SET sequence = ?, message = ? WHERE session_id = ? AND entry_key = ?",
  );
  const newestBySession = new Map<string, EntryHead>();

  function create(row: LedgerRow, kind: EntryKind, message: DaemonMessage): void {
    const json = JSON.stringify(message);
    insert.run(row.session_id, message.id, kind, row.turn_id, row.sequence, row.sequence, json);
    search.message(row.session_id, message.id, message);
    newestBySession.set(row.session_id, { entry_key: message.id, kind, turn_id: row.turn_id });
  }

  function replace(row: LedgerRow, message: DaemonMessage, json = JSON.stringify(message)): void {
    update.run(row.sequence, json, row.session_id, message.id);
    search.message(row.session_id, message.id, message);
  }

  return {
    stored: (sessionId, key) => byKey.get(sessionId, key),
    newest(sessionId) {
      const cached = newestBySession.get(sessionId);
      if (cached !== undefined) return cached;
      const head = newestHead.get(sessionId);
      if (head !== undefined) newestBySession.set(sessionId, head);
      return head;
    },
    create,
    replace,
    upsert(row, kind, key, fold) {
      const stored = byKey.get(row.session_id, key);
      if (stored === undefined) create(row, kind, fold());
      else replace(row, fold(JSON.parse(stored.message) as DaemonMessage));
    },
    forget(sessionId) {
      newestBySession.delete(sessionId);
    },
  };
}
