// The tails of messages still streaming, read incrementally for the live stream (ADR 0118).
// Every delta of a growing message carries the whole entry (the wire contract), and reading
// a 4 MB tail from its segments took ~25–37 ms each time. This keeps, per session, the
// tail it read last and reads only the segments from the last one on (which may have
// grown in place). A fold rewrites the stored message, so a different message text means
// the tail was folded away and is read afresh.
import type Database from "better-sqlite3";
import { READ_SQL } from "./read-sql";

type Cached = {
  entryKey: string;
  message: string;
  /** The tail up to, not including, the last segment read. */
  settled: string;
  lastSeq: number;
  lastText: string;
};

/** Sessions whose newest tail is kept; the oldest is dropped beyond this. */
const MAX_SESSIONS = 16;

export function createTailReader(db: Database.Database) {
  const segmentsFrom = db
    .prepare<[string, string, number], [number, string]>(READ_SQL.tailSegmentsFrom)
    .raw(true);
  const cache = new Map<string, Cached>();

  function readFresh(sessionId: string, entryKey: string, message: string): string | null {
    const rows = segmentsFrom.all(sessionId, entryKey, 0);
    const last = rows.at(-1);
    if (last === undefined) {
      cache.delete(sessionId);
      return null;
    }
    let settled = "";
    for (let index = 0; index < rows.length - 1; index += 1)
      settled += (rows[index] as [number, string])[1];
    remember(sessionId, { entryKey, message, settled, lastSeq: last[0], lastText: last[1] });
    return settled + last[1];
  }

  function remember(sessionId: string, entry: Cached) {
    cache.delete(sessionId);
    cache.set(sessionId, entry);
    if (cache.size > MAX_SESSIONS) cache.delete(cache.keys().next().value as string);
  }

  return {
    /** The entry's unfolded tail (null when it has none), as the page's TAIL_TEXT reads it. */
    tail(sessionId: string, entryKey: string, message: string): string | null {
      const cached = cache.get(sessionId);
      if (cached === undefined || cached.entryKey !== entryKey || cached.message !== message) {
        return readFresh(sessionId, entryKey, message);
      }
      const rows = segmentsFrom.all(sessionId, entryKey, cached.lastSeq);
      // The segments were cleared or renumbered under us: start over.
      if (rows[0]?.[0] !== cached.lastSeq) return readFresh(sessionId, entryKey, message);
      let settled = cached.settled;
      for (let index = 0; index < rows.length - 1; index += 1)
        settled += (rows[index] as [number, string])[1];
      const last = rows.at(-1) as [number, string];
      remember(sessionId, { entryKey, message, settled, lastSeq: last[0], lastText: last[1] });
      return settled + last[1];
    },
  };
}
