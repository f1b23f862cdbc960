// The compaction half of the recorder (docs/ledger.md §3): loads an id's persisted state,
// runs the pure intake step, appends its rows (chunk, snapshot, fired event) and stores
// the new state, all inside the caller's transaction.
import type Database from "better-sqlite3";
import type { CompactionChunkFrame, CompactionUpdateFrame } from "../domain/acp-update";
import {
  applyCompactionChunk,
  applyCompactionUpdate,
  type CompactionState,
  type CompactionStep,
  closeCompactionByDaemon,
} from "../domain/compaction-intake";
import type { Append, Content } from "./ledger-writer";
import { READ_SQL } from "./read-sql";

export type CompactionRecording = {
  record(
    sessionId: string,
    turnId: string | null,
    append: Append,
    frame: CompactionUpdateFrame | CompactionChunkFrame,
  ): void;
  /** The daemon-side close of every compaction that is not terminal (§3.10). */
  closeOpen(sessionId: string, turnId: string | null, append: Append): void;
};

type CompactionStatements = ReturnType<typeof prepareCompactionStatements>;

function prepareCompactionStatements(db: Database.Database) {
  return {
    compactionById: db.prepare<[string, string], { state: string }>(
      "SELECT state FROM compactions WHERE session_id = ? AND compaction_id = ?",
    ),
    openCompactionStates: db.prepare<[string], { state: string }>(
      `SELECT state FROM compactions WHERE session_id = ?
       AND status NOT IN ('completed', 'failed', 'cancelled') ORDER BY first_sequence`,
    ),
    insertCompaction: db.prepare(
      `INSERT INTO compactions (session_id, compaction_id, state, status, first_sequence,
         terminal_sequence, latest_sequence, fired_sequence, fired_turn_id, fired_at, trigger,
         context_used, context_size, snapshot_sequence)
       VALUES (@session_id, @compaction_id, @state, @status, @first_sequence, @terminal_sequence,
         @latest_sequence, @fired_sequence, @fired_turn_id, @fired_at, @trigger, @context_used,
         @context_size, @snapshot_sequence)`,
    ),
    updateCompaction: db.prepare(
      `UPDATE compactions SET state = @state, status = @status,
         terminal_sequence = COALESCE(terminal_sequence, @terminal_sequence),
         latest_sequence = COALESCE(@latest_sequence, latest_sequence),
         snapshot_sequence = COALESCE(@snapshot_sequence, snapshot_sequence)
       WHERE session_id = @session_id AND compaction_id = @compaction_id`,
    ),
    // §3.8: readings from before an earlier compaction's first terminal row do not count.
    earlierBoundary: db.prepare<[string, number], { boundary: number | null }>(
      `SELECT MAX(terminal_sequence) AS boundary FROM compactions
       WHERE session_id = ? AND terminal_sequence < ?`,
    ),
    readingBetween: db.prepare<[string, number, number], { content: string }>(
      READ_SQL.newestReadingBetween,
    ),
    turnRequested: db.prepare<[string, string], { compact_requested: number }>(
      "SELECT compact_requested FROM turns WHERE session_id = ? AND turn_id = ?",
    ),
  };
}

/** The context reading a compaction fired at: the newest since the previous boundary. */
function firedContext(
  statements: CompactionStatements,
  sessionId: string,
  firstSequence: number,
): { context_used: unknown; context_size: unknown } {
  const boundary = statements.earlierBoundary.get(sessionId, firstSequence)?.boundary ?? 0;
  const reading = statements.readingBetween.get(sessionId, boundary, firstSequence);
  if (reading === undefined) return { context_used: null, context_size: null };
  const content = JSON.parse(reading.content) as Content;
  return {
    context_used: content.context_used ?? null,
    context_size: content.context_size ?? null,
  };
}

/** Appends the rows of one compaction step and persists the id's new state. */
function applyCompactionStep(
  statements: CompactionStatements,
  sessionId: string,
  turnId: string | null,
  append: Append,
  step: CompactionStep,
): void {
  const chunkRow = step.chunk ? append("compaction.chunk", step.chunk) : undefined;
  const snapshotRow = step.snapshot ? append("compaction", step.snapshot) : undefined;
  const state: CompactionState = step.state;
  const terminalSequence = snapshotRow && step.snapshot?.terminal ? snapshotRow.sequence : null;
  const latest = snapshotRow?.sequence ?? chunkRow?.sequence ?? null;
  if (!step.firstSeen) {
    statements.updateCompaction.run({
      session_id: sessionId,
      compaction_id: state.compactionId,
      state: JSON.stringify(state),
      status: state.status,
      terminal_sequence: terminalSequence,
      latest_sequence: latest,
      snapshot_sequence: snapshotRow?.sequence ?? null,
    });
    return;
  }
  // A first-seen id always changes what is shown, so its first snapshot exists.
  if (snapshotRow === undefined) throw new Error("first-seen compaction without a snapshot");
  const requested =
    turnId !== null && statements.turnRequested.get(sessionId, turnId)?.compact_requested === 1;
  const fired = {
    compaction_id: state.compactionId,
    trigger: requested ? "requested" : "agent",
    ...firedContext(statements, sessionId, chunkRow?.sequence ?? snapshotRow.sequence),
  };
  const firedRow = append("session.compaction_fired", fired);
  statements.insertCompaction.run({
    session_id: sessionId,
    compaction_id: state.compactionId,
    state: JSON.stringify(state),
    status: state.status,
    first_sequence: snapshotRow.sequence,
    terminal_sequence: terminalSequence,
    latest_sequence: firedRow.sequence,
    fired_sequence: firedRow.sequence,
    fired_turn_id: turnId,
    fired_at: firedRow.created_at,
    trigger: fired.trigger,
    context_used: fired.context_used,
    context_size: fired.context_size,
    snapshot_sequence: snapshotRow.sequence,
  });
}

export function createCompactionRecording(db: Database.Database): CompactionRecording {
  const statements = prepareCompactionStatements(db);
  return {
    record(sessionId, turnId, append, frame) {
      const stored = statements.compactionById.get(sessionId, frame.compactionId);
      const current = stored ? (JSON.parse(stored.state) as CompactionState) : undefined;
      const step =
        frame.sessionUpdate === "compaction_update"
          ? applyCompactionUpdate(current, frame)
          : applyCompactionChunk(current, frame);
      applyCompactionStep(statements, sessionId, turnId, append, step);
    },
    closeOpen(sessionId, turnId, append) {
      for (const stored of statements.openCompactionStates.all(sessionId)) {
        const state = JSON.parse(stored.state) as CompactionState;
        applyCompactionStep(statements, sessionId, turnId, append, closeCompactionByDaemon(state));
      }
    },
  };
}
