// The session list's sort key and state filter, kept on the sessions row (ADR 0140) so
// a page of the list is an index range, not a sort of every session. Written inside the
// append's transaction: on every row that is not a stream chunk (a state change, an
// input, a completion, usage…), and at most once a second while chunks stream, so an
// ingest burst costs one sessions-row write a second, not one per frame (ADR 0040).
import type Database from "better-sqlite3";
import type { LedgerRow } from "../domain/session-recorder-api";
import { STREAM_ROW_TYPES } from "./migrations";

/** How stale the sort key may get while a session only streams chunks. */
export const STREAMING_ACTIVITY_MS = 1000;

const STREAM_TYPES: ReadonlySet<string> = new Set(STREAM_ROW_TYPES);

export function createActivityMarker(db: Database.Database) {
  const update = db.prepare<[string, string | null, string]>(
    "UPDATE sessions SET activity_at = ?, state = COALESCE(?, state) WHERE id = ?",
  );
  // When each session's row was last written (ms), to throttle chunk-only appends.
  const written = new Map<string, number>();

  return {
    /** After `rows` were appended to one session, inside their transaction. */
    mark(sessionId: string, rows: readonly LedgerRow[]): void {
      const last = rows[rows.length - 1];
      if (last === undefined) return;
      let state: string | null = null;
      let boundary = false;
      for (const row of rows) {
        if (STREAM_TYPES.has(row.type)) continue;
        boundary = true;
        if (row.type === "session.state") {
          const content = row.content as { state?: unknown };
          if (typeof content.state === "string") state = content.state;
        }
      }
      const at = Date.parse(last.created_at);
      const previous = written.get(sessionId);
      if (!boundary && previous !== undefined && at - previous < STREAMING_ACTIVITY_MS) return;
      update.run(last.created_at, state, sessionId);
      written.set(sessionId, at);
    },

    /** A rollback undid writes this remembers: the next append writes again. */
    forget(sessionId?: string): void {
      if (sessionId === undefined) written.clear();
      else written.delete(sessionId);
    },
  };
}
