// Every hot read must be an indexed search (O(page) or O(log n)), never a table scan:
// this asks SQLite for each statement's plan on the real schema.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { migrate } from "./migrations";
import { eventsSql, historyGroupRowsSql, historyGroupsSql, READ_SQL } from "./read-sql";

const db = new Database(":memory:");
migrate(db);

function plan(sql: string, params: unknown[]): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map(
    (row) => row.detail,
  );
}

const statements: [string, string, unknown[]][] = [
  ...Object.entries(READ_SQL).map(([name, sql]): [string, string, unknown[]] => [
    name,
    sql,
    Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => "x"),
  ]),
  ["events", eventsSql({ byTurn: false, byType: false }), ["s", 0, 9, 10]],
  ["events by type", eventsSql({ byTurn: false, byType: "indexed" }), ["s", 0, 9, "usage", 10]],
  [
    "events by streaming type",
    eventsSql({ byTurn: false, byType: "stream" }),
    ["s", 0, 9, "tool_call_update", 10],
  ],
  ["events by turn span", eventsSql({ byTurn: true, byType: false }), ["s", 0, 9, "t", 10]],
  [
    "events by turn and type",
    eventsSql({ byTurn: true, byType: "indexed" }),
    ["s", 0, 9, "t", "usage", 10],
  ],
  [
    "history groups",
    historyGroupsSql({ byTurn: false, byType: false, bySince: false }),
    ["s", 0, 9, 10],
  ],
  [
    "history groups of a turn",
    historyGroupsSql({ byTurn: true, byType: false, bySince: false }),
    ["s", 0, 9, "t", 10],
  ],
  [
    "a batch of a history group",
    historyGroupRowsSql({ byType: false, bySince: false }),
    ["s", 0, 9, "t", 10],
  ],
];

describe("read plans", () => {
  it.each(statements)(
    "when %s runs, then SQLite searches an index instead of scanning",
    (_name, sql, params) => {
      const details = plan(sql, params);
      expect(details.some((detail) => detail.startsWith("SEARCH"))).toBe(true);
      expect(details.filter((detail) => detail.startsWith("SCAN"))).toEqual([]);
    },
  );

  it("when a transcript page is read, then it walks entries_by_start in order, with no sort step", () => {
    expect(plan(READ_SQL.pageRows, ["s", 10, 200])).toEqual([
      "SEARCH e USING INDEX entries_by_start (session_id=? AND start_sequence<?)",
      "CORRELATED SCALAR SUBQUERY 1",
      // Segments are few per entry (none for most): sorting them costs nothing to speak of.
      "USE TEMP B-TREE FOR group_concat(ORDER BY)",
      "SEARCH s USING PRIMARY KEY (session_id=? AND entry_key=?)",
    ]);
  });

  it("when the newest reading of a type is read, then the partial type index is used", () => {
    expect(plan(READ_SQL.newestOfType, ["s", "usage"])).toEqual([
      "SEARCH ledger USING INDEX ledger_by_type (session_id=? AND type=?)",
    ]);
    expect(plan(eventsSql({ byTurn: false, byType: "indexed" }), ["s", 0, 9, "usage", 10])[0]).toBe(
      "SEARCH ledger USING INDEX ledger_by_type (session_id=? AND type=? AND sequence>? AND sequence<?)",
    );
  });

  it("when stream deltas are read, then entries_by_latest bounds the rows before they are sorted", () => {
    expect(plan(READ_SQL.changedRows, ["s", 10])[0]).toBe(
      "SEARCH e USING INDEX entries_by_latest (session_id=? AND sequence>?)",
    );
  });
});
