// The SQL of the hot reads, in one place so `read-plans.test.ts` can ask SQLite for each
// statement's plan and fail on a table scan.

/** The upper end of an open-ended sequence range. */
export const NO_UPPER_BOUND = Number.MAX_SAFE_INTEGER;

export function eventsSql(byTurn: boolean, byType: boolean): string {
  return `SELECT sequence, turn_id, type, content, created_at FROM ledger
    WHERE session_id = ? AND sequence > ? AND sequence < ?
    ${byTurn ? "AND turn_id = ?" : ""} ${byType ? "AND type = ?" : ""}
    ORDER BY sequence LIMIT ?`;
}

/** Statements with fixed text; `eventsSql` builds the four filter combinations. */
export const READ_SQL = {
  pageRows: `SELECT start_sequence, sequence, message FROM entries
       WHERE session_id = ? AND start_sequence < ? ORDER BY start_sequence DESC LIMIT ?`,
  changedRows: `SELECT start_sequence, sequence, message FROM entries
       WHERE session_id = ? AND sequence > ? ORDER BY start_sequence`,
  newestOfType: `SELECT sequence, turn_id, type, content, created_at FROM ledger
     WHERE session_id = ? AND type = ? ORDER BY sequence DESC LIMIT 1`,
  firstReadingBetween: `SELECT sequence, turn_id, type, content, created_at FROM ledger
     WHERE session_id = ? AND type = 'usage' AND sequence > ? AND sequence < ?
     ORDER BY sequence LIMIT 1`,
  boundaryRow: `SELECT compaction_id, terminal_sequence FROM compactions
     WHERE session_id = ? AND terminal_sequence IS NOT NULL
     ORDER BY terminal_sequence DESC LIMIT 1`,
  turnRows:
    "SELECT turn_id, first_sequence, usage FROM turns WHERE session_id = ? ORDER BY first_sequence",
  markerRows: `SELECT compaction_id, status, first_sequence, terminal_sequence, fired_sequence,
       fired_turn_id, fired_at, trigger, context_used, context_size
     FROM compactions WHERE session_id = ? AND fired_sequence IS NOT NULL
     ORDER BY first_sequence`,
  openRows: `SELECT compaction_id FROM compactions WHERE session_id = ?
     AND status NOT IN ('completed', 'failed', 'cancelled') ORDER BY first_sequence`,
  turnStart: "SELECT first_sequence FROM turns WHERE session_id = ? AND turn_id = ?",
  nextTurnStart: `SELECT first_sequence FROM turns WHERE session_id = ? AND first_sequence > ?
     ORDER BY first_sequence LIMIT 1`,
  turnCount: "SELECT COUNT(*) AS n FROM turns WHERE session_id = ?",
} as const;
