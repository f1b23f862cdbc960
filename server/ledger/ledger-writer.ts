// The write path under every record call (ADR 0043): one SQLite transaction that appends
// ledger rows with the session's next sequences and applies each row to every projection
// (transcript, usage, the session's activity), then tells listeners after the commit. A
// batch is one outer transaction around many calls, told only once it has committed. The
// transaction boundary is why the projections are applied here, row by row.
import type Database from "better-sqlite3";
import type { CommitNotice, LedgerRow, SessionRecorder } from "../domain/session-recorder-api";
import { READ_SQL } from "./read-sql";
import { createActivityMarker } from "./session-activity";
import { createTranscriptProjection } from "./transcript-projection";
import { createUsageProjection } from "./usage-projection";

export type Content = Record<string, unknown>;

/** Appends one row to the current transaction, with the next sequence. */
export type Append = (type: string, content: Content) => LedgerRow;

export type LedgerWriter = {
  /**
   * Runs `work` as one transaction (a savepoint inside a batch) and returns the rows it
   * appended; listeners hear of them after the commit.
   */
  record(sessionId: string, turnId: string | null, work: (append: Append) => void): LedgerRow[];
  batch: SessionRecorder["batch"];
  onCommit: SessionRecorder["onCommit"];
};

/** The row content as it will read back: keys whose value is `undefined` are not stored. */
export function defined(value: object): Content {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined));
}

function createCommitListeners() {
  const listeners = new Set<(notice: CommitNotice) => void>();
  return {
    tell(notice: CommitNotice): void {
      for (const listener of listeners) {
        // The rows are committed whatever a listener does; one failing must not stop the rest.
        try {
          listener(notice);
        } catch (error) {
          console.error("ledger commit listener failed", error);
        }
      }
    },
    onCommit(listener: (notice: CommitNotice) => void): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/**
 * The newest sequence per session, kept in memory (ADR 0040): derived once per session
 * from the ledger itself (the newest committed row, a primary-key descent), then moved
 * on only after a commit. The sessions row is not written on append any more.
 */
function createSequences(db: Database.Database) {
  const known = new Map<string, number>();
  const newestSequence = db.prepare<[string], { sequence: number }>(READ_SQL.newestSequence);
  const sessionExists = db.prepare<[string], { id: string }>(
    "SELECT id FROM sessions WHERE id = ?",
  );
  return {
    last(sessionId: string): number {
      const cached = known.get(sessionId);
      if (cached !== undefined) return cached;
      if (sessionExists.get(sessionId) === undefined)
        throw new Error(`unknown session ${sessionId}`);
      return newestSequence.get(sessionId)?.sequence ?? 0;
    },
    moved(sessionId: string, sequence: number): void {
      known.set(sessionId, sequence);
    },
    /** One session's, or every session's (a whole batch rolled back). */
    forget(sessionId?: string): void {
      if (sessionId === undefined) known.clear();
      else known.delete(sessionId);
    },
  };
}

/** One call's transaction: its rows inserted and projected, the session's activity marked. */
function appendTransaction(
  db: Database.Database,
  now: () => Date,
  sequences: ReturnType<typeof createSequences>,
  projections: { apply(row: LedgerRow): void }[],
  activity: ReturnType<typeof createActivityMarker>,
) {
  const insertRow = db.prepare(
    `INSERT INTO ledger (session_id, sequence, turn_id, type, content, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  return db.transaction(
    (sessionId: string, turnId: string | null, work: (append: Append) => void): LedgerRow[] => {
      let sequence = sequences.last(sessionId);
      const createdAt = now().toISOString();
      const rows: LedgerRow[] = [];
      work((type, content) => {
        sequence += 1;
        const row: LedgerRow = {
          session_id: sessionId,
          sequence,
          turn_id: turnId,
          type,
          content,
          created_at: createdAt,
        };
        insertRow.run(sessionId, sequence, turnId, type, JSON.stringify(content), createdAt);
        for (const projection of projections) projection.apply(row);
        rows.push(row);
        return row;
      });
      activity.mark(sessionId, rows);
      return rows;
    },
  );
}

export function createLedgerWriter(db: Database.Database, now: () => Date): LedgerWriter {
  const transcript = createTranscriptProjection(db);
  const activity = createActivityMarker(db);
  const sequences = createSequences(db);
  const listeners = createCommitListeners();
  const projections = [transcript, createUsageProjection(db)];
  const inTransaction = appendTransaction(db, now, sequences, projections, activity);
  // A batch (ADR 0043) is one outer transaction around many calls: each call is a savepoint
  // inside it, and what it appended is told to listeners only once the batch has committed.
  let batchNotices: CommitNotice[] | undefined;
  const inBatch = db.transaction((work: () => void) => work());

  return {
    onCommit: listeners.onCommit,
    record(sessionId, turnId, work) {
      let rows: LedgerRow[];
      try {
        rows = inTransaction.immediate(sessionId, turnId, work);
      } catch (error) {
        // Rolled back: nothing moved. Forget the cached sequence anyway, so a writer on
        // another connection (a primary-key clash) is caught up with on the next call.
        sequences.forget(sessionId);
        transcript.forget(sessionId);
        activity.forget(sessionId);
        throw error;
      }
      const last = rows[rows.length - 1];
      if (last !== undefined) {
        // The next append continues after it (in a batch, undone if the batch rolls back).
        sequences.moved(sessionId, last.sequence);
        const notice: CommitNotice = { sessionId, rows, maxSequence: last.sequence };
        if (batchNotices === undefined) listeners.tell(notice);
        else batchNotices.push(notice);
      }
      return rows;
    },
    batch(work) {
      if (batchNotices !== undefined) {
        work();
        return;
      }
      const notices: CommitNotice[] = [];
      batchNotices = notices;
      try {
        inBatch.immediate(work);
      } catch (error) {
        // The whole batch rolled back: nothing of it was told, and every cache may be ahead.
        sequences.forget();
        activity.forget();
        for (const notice of notices) transcript.forget(notice.sessionId);
        throw error;
      } finally {
        batchNotices = undefined;
      }
      for (const notice of notices) listeners.tell(notice);
    },
  };
}
