// A page of the session list in SQL (ADR 0140): the filters are WHERE clauses, the order
// is the `sessions_by_activity` index, only the page's rows compute their exact
// `updated_at` (the newest ledger row), and the total comes from `session_counts`. The
// statements are prepared once per filter shape.
import type Database from "better-sqlite3";
import type { SessionPageFilter } from "../domain/session-recorder-api";
import type { SessionRow } from "./session-store";

type Shape = { sql: string; values: (filter: SessionPageFilter) => (string | number)[] };

/**
 * The WHERE clause of a filter, over `sessions` or over `session_counts` (which says
 * `archived` 0/1 where the sessions row has `archived_at`). Values are bound, never SQL.
 */
function whereOf(filter: SessionPageFilter, over: "sessions" | "counts" = "sessions"): Shape {
  const clauses: string[] = [];
  const getters: ((filter: SessionPageFilter) => string)[] = [];
  if (filter.workspaceId !== undefined) {
    clauses.push("workspace_id = ?");
    getters.push((f) => f.workspaceId ?? "");
  }
  if (filter.agentName !== undefined) {
    clauses.push("agent_name = ?");
    getters.push((f) => f.agentName ?? "");
  }
  if (filter.state !== undefined) {
    clauses.push("state = ?");
    getters.push((f) => f.state ?? "");
  }
  const archived = over === "sessions" ? "archived_at IS NOT NULL" : "archived = 1";
  const live = over === "sessions" ? "archived_at IS NULL" : "archived = 0";
  if (filter.archive === "exclude") clauses.push(live);
  if (filter.archive === "only") clauses.push(archived);
  return {
    sql: clauses.length === 0 ? "" : `WHERE ${clauses.join(" AND ")}`,
    values: (f) => getters.map((get) => get(f)),
  };
}

/** The index whose order is the list's, led by the workspace when one is asked for. */
function orderIndexOf(filter: SessionPageFilter): string {
  return filter.workspaceId === undefined
    ? "sessions_by_activity"
    : "sessions_by_workspace_activity";
}

/** Which filters are set: the key of the prepared statements for that shape. */
function shapeKey(filter: SessionPageFilter): string {
  return [
    filter.workspaceId !== undefined,
    filter.agentName !== undefined,
    filter.state !== undefined,
    filter.archive,
  ].join(":");
}

/** The page's and the total's SQL for a filter's shape (values are bound parameters). */
export function pageSql(filter: SessionPageFilter, sessionColumns: string) {
  const { sql } = whereOf(filter);
  return {
    // The index is named, not left to the planner: without ANALYZE it may pick the archive
    // index and sort every match, the very cost this avoids.
    rows: `SELECT ${sessionColumns} FROM sessions INDEXED BY ${orderIndexOf(filter)} ${sql}
      ORDER BY activity_at DESC, id DESC LIMIT ? OFFSET ?`,
    // The counts table, not COUNT(*): a handful of rows instead of every session.
    count: `SELECT COALESCE(SUM(n), 0) AS total FROM session_counts ${whereOf(filter, "counts").sql}`,
  };
}

/** How many bound values a filter's WHERE clause takes. */
export function parameterCount(filter: SessionPageFilter): number {
  return whereOf(filter).values(filter).length;
}

export function createSessionPages(db: Database.Database, sessionColumns: string) {
  const prepared = new Map<
    string,
    {
      shape: Shape;
      rows: Database.Statement<(string | number)[], SessionRow>;
      count: Database.Statement<(string | number)[], { total: number }>;
    }
  >();

  function statementsFor(filter: SessionPageFilter) {
    const key = shapeKey(filter);
    const known = prepared.get(key);
    if (known !== undefined) return known;
    const shape = whereOf(filter);
    const sql = pageSql(filter, sessionColumns);
    const made = {
      shape,
      rows: db.prepare<(string | number)[], SessionRow>(sql.rows),
      count: db.prepare<(string | number)[], { total: number }>(sql.count),
    };
    prepared.set(key, made);
    return made;
  }

  return {
    page(filter: SessionPageFilter, page: { offset: number; limit: number }) {
      const statements = statementsFor(filter);
      const values = statements.shape.values(filter);
      const rows = statements.rows.all(...values, page.limit, page.offset);
      const total = statements.count.get(...values)?.total ?? 0;
      return { rows, total };
    },
  };
}
