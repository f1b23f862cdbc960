// A page of the session list in SQL (ADR 0140): the filters are WHERE clauses, the order
// is the `sessions_by_activity` index, and only the page's rows compute their exact
// `updated_at` (the newest ledger row). The statements are prepared once per filter shape.
import type Database from "better-sqlite3";
import type { SessionPageFilter } from "../domain/session-recorder-api";
import type { SessionRow } from "./session-store";

type Shape = { sql: string; values: (filter: SessionPageFilter) => (string | number)[] };

function whereOf(filter: SessionPageFilter): Shape {
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
  if (filter.archive === "exclude") clauses.push("archived_at IS NULL");
  if (filter.archive === "only") clauses.push("archived_at IS NOT NULL");
  return {
    sql: clauses.length === 0 ? "" : `WHERE ${clauses.join(" AND ")}`,
    values: (f) => getters.map((get) => get(f)),
  };
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
    const made = {
      shape,
      rows: db.prepare<(string | number)[], SessionRow>(
        `SELECT ${sessionColumns} FROM sessions ${shape.sql}
         ORDER BY activity_at DESC, id DESC LIMIT ? OFFSET ?`,
      ),
      count: db.prepare<(string | number)[], { total: number }>(
        `SELECT COUNT(*) AS total FROM sessions ${shape.sql}`,
      ),
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
