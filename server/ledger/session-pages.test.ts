// The session list paged in SQL (ADR 0140): order by activity, filters, totals, the
// throttled sort key while chunks stream, and the migration's backfill.
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { Ledger, SessionPageFilter } from "../domain/session-recorder-api";
import { frames, tempDatabase, testClock } from "../testing/ledger-session";
import { MIGRATIONS, migrate, sessionListPaging } from "./migrations";
import { openLedger } from "./open-ledger";
import { STREAMING_ACTIVITY_MS } from "./session-activity";
import { pageSql, parameterCount } from "./session-pages";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function open(path = ":memory:") {
  const clock = testClock();
  const ledger = openLedger(path, { now: clock.now });
  cleanups.push(() => ledger.close());
  const ws = ledger.store.ensureWorkspace("/work/a", "a").id;
  return { ledger, clock, ws };
}

const ALL: SessionPageFilter = { archive: "include" };

function ids(ledger: Ledger, filter: SessionPageFilter = ALL, offset = 0, limit = 50) {
  return ledger.store.pageSessions(filter, { offset, limit }).records.map((record) => record.id);
}

describe("pageSessions", () => {
  it("when sessions have activity, then a page is newest activity first, sliced, with the total", () => {
    const { ledger, clock, ws } = open();
    const made: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      made.push(ledger.store.createSession({ workspaceId: ws, agentName: "demo" }).id);
      clock.tick();
    }
    // The oldest session speaks last: it moves to the top.
    ledger.recorder.recordInput(made[0] ?? "", "turn-1", "hello");
    const newestFirst = [made[0], made[4], made[3], made[2], made[1]];
    expect(ids(ledger)).toEqual(newestFirst);
    const second = ledger.store.pageSessions(ALL, { offset: 2, limit: 2 });
    expect(second.records.map((record) => record.id)).toEqual(newestFirst.slice(2, 4));
    expect(second.total).toBe(5);
    // updated_at is still the exact newest ledger row.
    expect(second.records[0]?.updated_at).toBe(ledger.store.getSession(made[3] ?? "")?.updated_at);
    expect(ledger.store.pageSessions(ALL, { offset: 10, limit: 2 })).toEqual({
      records: [],
      total: 5,
    });
  });

  it("when filtered by workspace, agent, recorded state and archive, then only matches count", () => {
    const { ledger, clock, ws } = open();
    const other = ledger.store.ensureWorkspace("/work/b", "b").id;
    const a = ledger.store.createSession({ workspaceId: ws, agentName: "demo" }).id;
    clock.tick();
    const b = ledger.store.createSession({ workspaceId: other, agentName: "claude" }).id;
    clock.tick();
    const c = ledger.store.createSession({ workspaceId: ws, agentName: "claude" }).id;
    clock.tick();
    ledger.recorder.recordState(a, "active");
    clock.tick();
    ledger.recorder.recordState(c, "active");
    ledger.recorder.recordState(c, "stopped", "agent exited with code 0");
    ledger.store.setArchivedAt(b, "2026-01-01T00:00:00.000Z");

    expect(ids(ledger, { archive: "exclude" })).toEqual([c, a]);
    expect(ids(ledger, { archive: "only" })).toEqual([b]);
    expect(ids(ledger, { archive: "include", workspaceId: other })).toEqual([b]);
    expect(ids(ledger, { archive: "include", agentName: "claude" })).toEqual([c, b]);
    expect(ids(ledger, { archive: "include", state: "active" })).toEqual([a]);
    expect(ids(ledger, { archive: "include", state: "stopped" })).toEqual([c, b]);
    expect(
      ledger.store.pageSessions({ archive: "exclude", workspaceId: ws }, { offset: 0, limit: 1 })
        .total,
    ).toBe(2);
    // Hostile values are bound parameters, never SQL.
    expect(ids(ledger, { archive: "include", agentName: "x' OR '1'='1" })).toEqual([]);
  });

  it("when sessions are created, change state, are archived, unarchived and deleted, then every total matches a count of the rows", () => {
    const { ledger, clock, ws } = open();
    const other = ledger.store.ensureWorkspace("/work/b", "b").id;
    const made: string[] = [];
    const states = ["active", "stopped", "starting", "stopping"] as const;
    for (let index = 0; index < 40; index += 1) {
      const id = ledger.store.createSession({
        workspaceId: index % 3 === 0 ? other : ws,
        agentName: index % 2 === 0 ? "demo" : "claude",
      }).id;
      made.push(id);
      ledger.recorder.recordState(id, states[index % 4] ?? "active");
      clock.tick();
    }
    for (const id of made.slice(0, 10)) ledger.store.setArchivedAt(id, "2026-01-01T00:00:00.000Z");
    for (const id of made.slice(0, 3)) ledger.store.setArchivedAt(id, null);
    for (const id of made.slice(20, 25)) ledger.store.deleteSession(id);
    for (const id of made.slice(30, 35)) ledger.recorder.recordState(id, "stopped");
    const live = made.filter((_, index) => index < 20 || index >= 25);
    const filters: SessionPageFilter[] = [];
    for (const archive of ["exclude", "only", "include"] as const) {
      for (const workspaceId of [undefined, ws, other]) {
        for (const agentName of [undefined, "demo", "claude"]) {
          for (const state of [undefined, ...states]) {
            filters.push({ archive, workspaceId, agentName, state });
          }
        }
      }
    }
    for (const filter of filters) {
      const everything = ledger.store.pageSessions(filter, { offset: 0, limit: -1 });
      // The total is the counts table's; the records are the sessions' own rows.
      expect(everything.total, JSON.stringify(filter)).toBe(everything.records.length);
    }
    expect(ledger.store.pageSessions(ALL, { offset: 0, limit: 1 }).total).toBe(live.length);
  });

  it("when a session only streams chunks, then its sort key moves at most once a second, and a boundary row moves it at once", () => {
    const { ledger, clock, ws } = open();
    const streaming = ledger.store.createSession({ workspaceId: ws, agentName: "demo" }).id;
    ledger.recorder.recordInput(streaming, "turn-1", "go");
    clock.tick(10);
    const quiet = ledger.store.createSession({ workspaceId: ws, agentName: "demo" }).id;
    clock.tick(10);
    // Chunks within the window leave the stored key where the input put it...
    ledger.recorder.recordUpdate(streaming, "turn-1", frames.text("a"), "{}");
    expect(ids(ledger)).toEqual([quiet, streaming]);
    // ...a chunk a window later moves it...
    clock.tick(STREAMING_ACTIVITY_MS);
    ledger.recorder.recordUpdate(streaming, "turn-1", frames.text("b"), "{}");
    expect(ids(ledger)).toEqual([streaming, quiet]);
    // ...and a boundary row (the turn's state, input, completion) always does.
    clock.tick(10);
    ledger.recorder.recordInput(quiet, "turn-2", "me too");
    expect(ids(ledger)).toEqual([quiet, streaming]);
    clock.tick(10);
    ledger.recorder.recordPromptCompleted(streaming, "turn-1", { stop_reason: "end_turn" });
    expect(ids(ledger)).toEqual([streaming, quiet]);
  });

  it("when a database from before the migration opens, then each session's key and state come from its ledger", () => {
    const file = tempDatabase();
    cleanups.push(file.cleanup);
    const old = new Database(file.path);
    migrate(old, MIGRATIONS.indexOf(sessionListPaging));
    old.exec(`
      INSERT INTO workspaces VALUES ('ws_1', 'a', '/work/a', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
      INSERT INTO sessions (id, workspace_id, agent_name, created_at, updated_at)
        VALUES ('ses_old', 'ws_1', 'demo', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
               ('ses_new', 'ws_1', 'demo', '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z');
      INSERT INTO ledger VALUES ('ses_old', 1, NULL, 'session.state', '{"state":"active"}', '2026-01-03T00:00:00.000Z');
    `);
    old.close();
    const { ledger } = open(file.path);
    expect(ids(ledger)).toEqual(["ses_old", "ses_new"]);
    expect(ids(ledger, { archive: "include", state: "active" })).toEqual(["ses_old"]);
    expect(ids(ledger, { archive: "include", state: "stopped" })).toEqual(["ses_new"]);
  });

  it("when a page and its total are read, then SQLite walks indexes instead of sorting or reading every session", () => {
    const db = new Database(":memory:");
    cleanups.unshift(() => db.close());
    migrate(db);
    const filters: SessionPageFilter[] = [
      { archive: "exclude" },
      { archive: "include" },
      { archive: "exclude", workspaceId: "ws" },
      { archive: "only", agentName: "demo", state: "stopped" },
      { archive: "exclude", workspaceId: "ws", agentName: "demo", state: "active" },
    ];
    for (const filter of filters) {
      const sql = pageSql(filter, "id, updated_at");
      const values = Array.from({ length: parameterCount(filter) }, () => "x");
      const plan = (text: string, extra: number[] = []) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...values, ...extra) as { detail: string }[])
          .map((step) => step.detail)
          .join(" | ");
      const rows = plan(sql.rows, [10, 50]);
      expect(rows).toMatch(/INDEX sessions_by_(workspace_)?activity/);
      expect(rows).not.toMatch(/TEMP B-TREE/);
      expect(plan(sql.count)).toMatch(/session_counts/);
      expect(plan(sql.count)).not.toMatch(/sessions_by|SCAN sessions/);
    }
  });
});
