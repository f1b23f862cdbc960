// The transcript read model's reads (docs/ledger.md §4): a page is one range on
// entries_by_start, a stream delta one range on entries_by_latest, and the epoch with the
// projection's generation fences a client's cursor. Nothing here re-folds history.
import type Database from "better-sqlite3";
import type { TranscriptPage } from "../../src/contract/transcript";
import type { SessionReader } from "../domain/session-recorder-api";
import { type EntryTuple, entryJson, toEntry } from "./read-rows";
import { NO_UPPER_BOUND, READ_SQL } from "./read-sql";
import { createTailReader } from "./tail-reader";

/**
 * The transcript projection's generation: bumped by a migration that rebuilds `entries`,
 * so a client holding entries of the old fold gets a `generation_mismatch` reset.
 */
const PROJECTION_GENERATION = 1;

export type TranscriptReader = Pick<
  SessionReader,
  "transcriptPage" | "transcriptPageJson" | "entriesChangedAfter" | "maxSequence" | "historyVersion"
>;

type PageRows = Database.Statement<[string, number, number], EntryTuple>;

/** One page of entries, oldest first, each rendered by `render`; rows come newest first. */
function readPage<T>(
  pageRows: PageRows,
  sessionId: string,
  limit: number,
  beforeSequence: number | undefined,
  render: (row: EntryTuple) => T,
): { items: T[]; hasOlder: boolean; oldest: EntryTuple | undefined } {
  const rows = pageRows.all(sessionId, beforeSequence ?? NO_UPPER_BOUND, limit + 1);
  const count = Math.min(rows.length, limit);
  const items = new Array<T>(count);
  for (let index = 0; index < count; index += 1) {
    items[count - 1 - index] = render(rows[index] as EntryTuple);
  }
  return {
    items,
    hasOlder: rows.length > limit,
    oldest: rows[count - 1] as EntryTuple | undefined,
  };
}

export function createTranscriptReader(db: Database.Database): TranscriptReader {
  const epochRow = db.prepare<[], { value: string }>(
    "SELECT value FROM meta WHERE key = 'transcript_epoch'",
  );
  const newestSequence = db.prepare<[string], number>(READ_SQL.newestSequence).pluck(true);
  // Raw (array) mode: a page is the hot read, and row objects would be built only to be
  // taken apart again. `transcriptPageJson` also skips the message JSON parse.
  const pageRows: PageRows = db
    .prepare<[string, number, number], EntryTuple>(READ_SQL.pageRows)
    .raw(true);
  const changedRows = db
    .prepare<[string, number], [number, number, string, string]>(READ_SQL.changedRows)
    .raw(true);
  const tails = createTailReader(db);
  const epoch = Number(epochRow.get()?.value ?? 0);
  const epochJson = JSON.stringify(epoch);

  function maxSequence(sessionId: string): number {
    return newestSequence.get(sessionId) ?? 0;
  }

  return {
    transcriptPage(sessionId, { limit, beforeSequence }) {
      const page = readPage(pageRows, sessionId, limit, beforeSequence, toEntry);
      const { items: entries, hasOlder } = page;
      const answer: TranscriptPage = {
        entries,
        epoch,
        generation: PROJECTION_GENERATION,
        max_sequence: maxSequence(sessionId),
        has_older: hasOlder,
        limit,
      };
      const oldest = entries[0];
      if (hasOlder && oldest !== undefined) answer.next_before_sequence = oldest.start_sequence;
      return answer;
    },
    transcriptPageJson(sessionId, { limit, beforeSequence }) {
      // The same page as `transcriptPage`, written as JSON in the same key order.
      const page = readPage(pageRows, sessionId, limit, beforeSequence, entryJson);
      const { items: entries, hasOlder, oldest } = page;
      let json = `{"entries":[${entries.join(",")}],"epoch":${epochJson},"generation":${PROJECTION_GENERATION},"max_sequence":${maxSequence(sessionId)},"has_older":${hasOlder},"limit":${JSON.stringify(limit)}`;
      if (hasOlder && oldest !== undefined) json += `,"next_before_sequence":${oldest[0]}`;
      return `${json}}`;
    },
    entriesChangedAfter(sessionId, cursor) {
      return changedRows
        .all(sessionId, cursor)
        .map(([start, sequence, message, entryKey]) =>
          toEntry([start, sequence, message, tails.tail(sessionId, entryKey, message)]),
        );
    },
    maxSequence,
    historyVersion() {
      return { epoch, generation: PROJECTION_GENERATION };
    },
  };
}
