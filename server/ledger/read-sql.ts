// The SQL of the hot reads, in one place so `read-plans.test.ts` can ask SQLite for each
// statement's plan and fail on a table scan.

import { STREAM_ROW_TYPES } from "./migrations";

/**
 * Reads by type name the partial index explicitly: SQLite uses a partial index only when
 * the query repeats its WHERE term, and its cost guess prefers the primary key otherwise.
 * Only for types that are not in STREAM_ROW_TYPES.
 */
const BY_TYPE = `INDEXED BY ledger_by_type`;
const INDEXED_TYPES = `type NOT IN (${STREAM_ROW_TYPES.map((type) => `'${type}'`).join(", ")})`;

export function isIndexedRowType(type: string): boolean {
  return !(STREAM_ROW_TYPES as readonly string[]).includes(type);
}

/** An entry's unfolded tail (ADR 0042): its segments in order, NULL when it has none. */
const TAIL_TEXT = `(SELECT group_concat(s.text, '' ORDER BY s.seq) FROM entry_tail_segments s
       WHERE s.session_id = e.session_id AND s.entry_key = e.entry_key)`;

/** The upper end of an open-ended sequence range. */
export const NO_UPPER_BOUND = Number.MAX_SAFE_INTEGER;

/**
 * Row types that never reach a read surface: a compaction's summary chunks are kept for
 * a restart (and in the id's intake state) but shown only folded into snapshot rows, as
 * CompozyOS shows one row per snapshot.
 */
const HIDDEN_ROW_TYPES = ["compaction.chunk"] as const;
const VISIBLE = `type NOT IN (${HIDDEN_ROW_TYPES.map((type) => `'${type}'`).join(", ")})`;

export function isHiddenRowType(type: string): boolean {
  return (HIDDEN_ROW_TYPES as readonly string[]).includes(type);
}

/**
 * Events: the newest `limit` matching rows of a primary-key range (bounded to the turn's
 * span when filtering by turn), or of the type index for a non-streaming type, read
 * newest first (the caller puts them oldest first, as CompozyOS answers). Parameters:
 * session, after, before, [turn], [type], [since], limit.
 */
export function eventsSql(filter: {
  byTurn: boolean;
  byType: "indexed" | "stream" | false;
  bySince?: boolean;
}): string {
  const useTypeIndex = filter.byType === "indexed" && !filter.byTurn;
  return `SELECT sequence, turn_id, type, content, created_at FROM ledger
    ${useTypeIndex ? BY_TYPE : ""}
    WHERE session_id = ? AND sequence > ? AND sequence < ?
    ${filter.byTurn ? "AND turn_id = ?" : ""} ${filter.byType ? "AND type = ?" : ""}
    ${filter.bySince ? "AND created_at >= ?" : ""}
    ${useTypeIndex ? `AND ${INDEXED_TYPES}` : ""} AND ${VISIBLE}
    ORDER BY sequence DESC LIMIT ?`;
}

/**
 * History's groups (ADR 0117): each turn id ('' for session-level rows) with its first
 * matching row, newest first. Parameters: session, after, before, [turn], [type], [since],
 * limit. One aggregate inside SQLite: no row reaches JavaScript.
 */
export function historyGroupsSql(filter: { byTurn: boolean; byType: boolean; bySince: boolean }) {
  return `SELECT COALESCE(turn_id, '') AS turn_id, MIN(sequence) AS first_sequence FROM ledger
    WHERE session_id = ? AND sequence > ? AND sequence < ?
    ${filter.byTurn ? "AND turn_id = ?" : ""} ${filter.byType ? "AND type = ?" : ""}
    ${filter.bySince ? "AND created_at >= ?" : ""} AND ${VISIBLE}
    GROUP BY COALESCE(turn_id, '') ORDER BY first_sequence DESC LIMIT ?`;
}

/**
 * One batch of a history group's rows, oldest first, after a cursor. Parameters: session,
 * after, before, group ('' for session-level rows), [type], [since], limit.
 */
export function historyGroupRowsSql(filter: { byType: boolean; bySince: boolean }) {
  return `SELECT sequence, turn_id, type, content, created_at FROM ledger
    WHERE session_id = ? AND sequence > ? AND sequence < ? AND COALESCE(turn_id, '') = ?
    ${filter.byType ? "AND type = ?" : ""} ${filter.bySince ? "AND created_at >= ?" : ""}
    AND ${VISIBLE} ORDER BY sequence LIMIT ?`;
}

/** Statements with fixed text; `eventsSql` builds the four filter combinations. */
export const READ_SQL = {
  /** Entries with the unfolded tail of a long streamed message (see migration 2). */
  pageRows: `SELECT e.start_sequence, e.sequence, e.message, ${TAIL_TEXT} FROM entries e
       WHERE e.session_id = ? AND e.start_sequence < ? ORDER BY e.start_sequence DESC LIMIT ?`,
  /** A batch of a session's entries, oldest first, with their tails (the export). */
  exportEntryRows: `SELECT e.start_sequence, e.sequence, e.message, ${TAIL_TEXT} FROM entries e
       WHERE e.session_id = ? AND e.start_sequence > ? ORDER BY e.start_sequence LIMIT ?`,
  /** A batch of a session's ledger rows, oldest first, chunks left out (the export). */
  exportLedgerRows: `SELECT sequence, turn_id, type, content, created_at FROM ledger
       WHERE session_id = ? AND sequence > ? AND ${VISIBLE}
       ORDER BY sequence LIMIT ?`,
  /** The entries of one compaction span, oldest first, with their tails (the audit). */
  spanRows: `SELECT e.start_sequence, e.sequence, e.message, ${TAIL_TEXT} FROM entries e
       WHERE e.session_id = ? AND e.start_sequence > ? AND e.start_sequence < ?
       ORDER BY e.start_sequence`,
  /** Changed entries with their key; the stream reads a growing tail through `tail-reader`. */
  changedRows: `SELECT e.start_sequence, e.sequence, e.message, e.entry_key FROM entries e
       WHERE e.session_id = ? AND e.sequence > ? ORDER BY e.start_sequence`,
  /** An entry's tail segments from `seq` on (the last one read may have grown since). */
  tailSegmentsFrom: `SELECT seq, text FROM entry_tail_segments
       WHERE session_id = ? AND entry_key = ? AND seq >= ? ORDER BY seq`,
  /** Newest row of a non-streaming type (usage, session.state, available_commands). */
  newestOfType: `SELECT sequence, turn_id, type, content, created_at FROM ledger ${BY_TYPE}
     WHERE session_id = ? AND type = ? AND ${INDEXED_TYPES} ORDER BY sequence DESC LIMIT 1`,
  /** Every row of one non-streaming type, oldest first (permission requests, answers). */
  rowsOfType: `SELECT sequence, turn_id, type, content, created_at FROM ledger ${BY_TYPE}
     WHERE session_id = ? AND type = ? AND ${INDEXED_TYPES} ORDER BY sequence`,
  newestReadingBetween: `SELECT content FROM ledger ${BY_TYPE}
     WHERE session_id = ? AND type = 'usage' AND ${INDEXED_TYPES} AND sequence > ? AND sequence < ?
     ORDER BY sequence DESC LIMIT 1`,
  /** The first context reading in a sequence range: a marker's "after" figure (ADR 0121). */
  firstReadingBetween: `SELECT sequence, turn_id, content, created_at FROM ledger ${BY_TYPE}
     WHERE session_id = ? AND type = 'usage' AND ${INDEXED_TYPES} AND sequence > ? AND sequence < ?
       AND json_extract(content, '$.context_used') IS NOT NULL
     ORDER BY sequence LIMIT 1`,
  boundaryRow: `SELECT compaction_id, terminal_sequence FROM compactions
     WHERE session_id = ? AND terminal_sequence IS NOT NULL
     ORDER BY terminal_sequence DESC LIMIT 1`,
  turnRows:
    "SELECT turn_id, first_sequence, usage FROM turns WHERE session_id = ? ORDER BY first_sequence",
  /** Markers: each fired compaction with its newest snapshot row (turn, sequence, time). */
  markerRows: `SELECT c.compaction_id, c.status, c.first_sequence, c.terminal_sequence,
       c.fired_sequence, c.fired_turn_id, c.fired_at, c.trigger, c.context_used, c.context_size,
       l.sequence AS snapshot_sequence, l.turn_id AS snapshot_turn_id,
       l.created_at AS snapshot_at
     FROM compactions c
     LEFT JOIN ledger l ON l.session_id = c.session_id AND l.sequence = c.snapshot_sequence
     WHERE c.session_id = ? AND c.fired_sequence IS NOT NULL
     ORDER BY c.first_sequence`,
  openRows: `SELECT compaction_id FROM compactions WHERE session_id = ?
     AND status NOT IN ('completed', 'failed', 'cancelled') ORDER BY first_sequence`,
  turnStart: "SELECT first_sequence FROM turns WHERE session_id = ? AND turn_id = ?",
  nextTurnStart: `SELECT first_sequence FROM turns WHERE session_id = ? AND first_sequence > ?
     ORDER BY first_sequence LIMIT 1`,
  turnCount: "SELECT COUNT(*) AS n FROM turns WHERE session_id = ?",
  /** The session's newest row: its sequence is the max sequence (ADR 0040). */
  newestSequence: "SELECT sequence FROM ledger WHERE session_id = ? ORDER BY sequence DESC LIMIT 1",
} as const;
