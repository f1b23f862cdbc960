// The history read models (CompozyOS `events` and `history`, ADR 0117): ranges of the
// ledger itself, by primary key (bounded to a turn's span when filtering by turn) or by
// the type index, read newest first and answered oldest first. Summary chunks never
// appear. Each filter shape's statement is prepared once, on first use.
import type Database from "better-sqlite3";
import type { DaemonSessionEvent } from "../../src/contract/history";
import {
  type EventFilter,
  HISTORY_BATCH,
  type History,
  type HistoryGroup,
  type SessionReader,
} from "../domain/session-recorder-api";
import { type EventOwner, type LedgerRowRaw, toEvent } from "./read-rows";
import {
  eventsSql,
  historyGroupRowsSql,
  historyGroupsSql,
  isHiddenRowType,
  isIndexedRowType,
  NO_UPPER_BOUND,
  READ_SQL,
} from "./read-sql";

export type EventReader = Pick<
  SessionReader,
  "events" | "history" | "historyGroups" | "historyGroupEvents"
>;

type Param = string | number;
/** The sequences a filter reads between, and its type and since parameters. */
type FilterRange = { after: number; before: number; tail: Param[] };

/** One statement per filter shape, prepared the first time the shape is asked for. */
function statementsByShape<Shape extends Record<string, unknown>, Row>(
  db: Database.Database,
  sqlOf: (shape: Shape) => string,
): (shape: Shape) => Database.Statement<Param[], Row> {
  const statements = new Map<string, Database.Statement<Param[], Row>>();
  return (shape) => {
    const key = Object.values(shape).join(":");
    let statement = statements.get(key);
    if (statement === undefined) {
      statement = db.prepare<Param[], Row>(sqlOf(shape));
      statements.set(key, statement);
    }
    return statement;
  };
}

type EventStatements = ReturnType<typeof prepareEventStatements>;

function prepareEventStatements(db: Database.Database) {
  return {
    ownerRow: db.prepare<[string], { agent_name: string; workspace_id: string }>(
      "SELECT agent_name, workspace_id FROM sessions WHERE id = ?",
    ),
    turnStart: db.prepare<[string, string], { first_sequence: number }>(READ_SQL.turnStart),
    nextTurnStart: db.prepare<[string, number], { first_sequence: number }>(READ_SQL.nextTurnStart),
    events: statementsByShape<
      { byTurn: boolean; byType: "indexed" | "stream" | false; bySince: boolean },
      LedgerRowRaw
    >(db, eventsSql),
    groups: statementsByShape<{ byTurn: boolean; byType: boolean; bySince: boolean }, HistoryGroup>(
      db,
      historyGroupsSql,
    ),
    groupRows: statementsByShape<{ byType: boolean; bySince: boolean }, LedgerRowRaw>(
      db,
      historyGroupRowsSql,
    ),
  };
}

function ownerOf(statements: EventStatements, sessionId: string): EventOwner {
  const row = statements.ownerRow.get(sessionId);
  return { sessionId, agentName: row?.agent_name ?? "", workspaceId: row?.workspace_id ?? "" };
}

/**
 * The sequences a turn's rows lie in: from its first row to the next turn's first row.
 * Turns never overlap (one prompt at a time per session, docs/ledger.md §1), so this
 * span plus `turn_id = ?` finds exactly the turn's rows without an index on turn_id.
 */
function turnSpan(
  statements: EventStatements,
  sessionId: string,
  turnId: string,
): { from: number; to: number } | undefined {
  const start = statements.turnStart.get(sessionId, turnId);
  if (start === undefined) return undefined;
  const next = statements.nextTurnStart.get(sessionId, start.first_sequence);
  return { from: start.first_sequence, to: next?.first_sequence ?? NO_UPPER_BOUND };
}

/** The filter's range and parameters; undefined: nothing matches. */
function filterRange(
  statements: EventStatements,
  sessionId: string,
  query: EventFilter,
): FilterRange | undefined {
  if (query.type !== undefined && isHiddenRowType(query.type)) return undefined;
  if (
    query.agent_name !== undefined &&
    query.agent_name !== ownerOf(statements, sessionId).agentName
  ) {
    return undefined;
  }
  let after = query.after_sequence ?? 0;
  let before = NO_UPPER_BOUND;
  if (query.turn_id !== undefined) {
    const span = turnSpan(statements, sessionId, query.turn_id);
    if (span === undefined) return undefined;
    after = Math.max(after, span.from - 1);
    before = span.to;
  }
  const tail: Param[] = [];
  if (query.type !== undefined) tail.push(query.type);
  // Stored times are ISO UTC: a `since` in another offset is compared as the same instant.
  if (query.since !== undefined) tail.push(new Date(query.since).toISOString());
  return { after, before, tail };
}

/** The newest `limit` visible rows matching the filter, oldest first. */
function matchingRows(
  statements: EventStatements,
  sessionId: string,
  query: EventFilter,
): LedgerRowRaw[] {
  const range = filterRange(statements, sessionId, query);
  if (range === undefined) return [];
  const type = query.type;
  const byType = type === undefined ? false : isIndexedRowType(type) ? "indexed" : "stream";
  const turn = query.turn_id === undefined ? [] : [query.turn_id];
  const rows = statements
    .events({ byTurn: query.turn_id !== undefined, byType, bySince: query.since !== undefined })
    .all(sessionId, range.after, range.before, ...turn, ...range.tail, query.limit);
  return rows.reverse();
}

/** History's newest `limit` groups, oldest first (ADR 0117). */
function historyGroups(
  statements: EventStatements,
  sessionId: string,
  query: EventFilter,
): HistoryGroup[] {
  const range = filterRange(statements, sessionId, query);
  if (range === undefined) return [];
  const shape = {
    byTurn: query.turn_id !== undefined,
    byType: query.type !== undefined,
    bySince: query.since !== undefined,
  };
  const turn = query.turn_id === undefined ? [] : [query.turn_id];
  return statements
    .groups(shape)
    .all(sessionId, range.after, range.before, ...turn, ...range.tail, query.limit)
    .reverse();
}

/** Up to `limit` events of one history group after sequence `after`, oldest first. */
function historyGroupEvents(
  statements: EventStatements,
  sessionId: string,
  query: EventFilter,
  group: HistoryGroup,
  after: number,
  limit: number,
): DaemonSessionEvent[] {
  const range = filterRange(statements, sessionId, query);
  if (range === undefined) return [];
  // A turn's rows lie in its span (turns never overlap); session-level rows anywhere.
  const span = group.turn_id === "" ? undefined : turnSpan(statements, sessionId, group.turn_id);
  const from = Math.max(range.after, after, group.first_sequence - 1);
  const to = Math.min(range.before, span?.to ?? NO_UPPER_BOUND);
  const shape = { byType: query.type !== undefined, bySince: query.since !== undefined };
  const owner = ownerOf(statements, sessionId);
  return statements
    .groupRows(shape)
    .all(sessionId, from, to, group.turn_id, ...range.tail, limit)
    .map((row) => toEvent(owner, row));
}

/** Every group's events, read a batch at a time. */
function history(statements: EventStatements, sessionId: string, query: EventFilter): History {
  const groups = historyGroups(statements, sessionId, query).map((group) => {
    const events: DaemonSessionEvent[] = [];
    let after = 0;
    for (;;) {
      const batch = historyGroupEvents(statements, sessionId, query, group, after, HISTORY_BATCH);
      events.push(...batch);
      if (batch.length < HISTORY_BATCH) break;
      after = batch[batch.length - 1]?.sequence ?? after;
    }
    return { turn_id: group.turn_id, events };
  });
  return { history: groups };
}

export function createEventReader(db: Database.Database): EventReader {
  const statements = prepareEventStatements(db);
  return {
    events(sessionId, query) {
      const owner = ownerOf(statements, sessionId);
      return {
        events: matchingRows(statements, sessionId, query).map((row) => toEvent(owner, row)),
      };
    },
    history: (sessionId, query) => history(statements, sessionId, query),
    historyGroups: (sessionId, query) => historyGroups(statements, sessionId, query),
    historyGroupEvents: (sessionId, query, group, after, limit) =>
      historyGroupEvents(statements, sessionId, query, group, after, limit),
  };
}
