// The host's list page: SQL-paged records, each as the brief wire view (no commands,
// modes or options), with the matching total.
import { afterEach, describe, expect, it } from "vitest";
import { openLedger } from "../../ledger/open-ledger";
import { testClock } from "../../testing/ledger-session";
import { createSessionHost } from "../session-host";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function hostWithSessions(count: number) {
  const clock = testClock();
  const ledger = openLedger(":memory:", { now: clock.now });
  cleanups.push(() => ledger.close());
  const ws = ledger.store.ensureWorkspace("/work/a", "a").id;
  const host = createSessionHost({
    ledger,
    agents: [{ name: "demo", command: "true", args: [] }],
    version: "test",
    agentCwd: "/",
    now: clock.now,
    log: () => {},
  });
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const id = ledger.store.createSession({ workspaceId: ws, agentName: "demo" }).id;
    ledger.recorder.recordUpdate(
      id,
      null,
      {
        sessionUpdate: "available_commands_update",
        availableCommands: [{ name: "compact", description: "Compact" }],
      },
      "{}",
    );
    ids.push(id);
    clock.tick();
  }
  return { host, ledger, ws, ids, clock };
}

describe("listPage", () => {
  it("when a page is asked for, then it holds that slice of the newest-first list as brief views, with the total", () => {
    const { host, ids } = hostWithSessions(7);
    const page = host.listPage({}, { offset: 2, limit: 3 });
    expect(page.total).toBe(7);
    expect(page.sessions.map((session) => session.id)).toEqual(ids.toReversed().slice(2, 5));
    for (const session of page.sessions) {
      expect(session.available_commands).toEqual([]);
      expect(session.state).toBe("stopped");
    }
    // The detail still carries the commands the list leaves out.
    expect(host.findSession(ids[0] ?? "")?.available_commands.map((c) => c.name)).toEqual([
      "compact",
    ]);
  });

  it("when filtered by state, then the recorded state decides, as the view shows it", () => {
    const { host, ledger, ids, clock } = hostWithSessions(3);
    ledger.recorder.recordState(ids[1] ?? "", "active");
    clock.tick();
    ledger.recorder.recordState(ids[2] ?? "", "stopped", "stopped by request");
    const active = host.listPage({ state: "active" }, { offset: 0, limit: 10 });
    expect(active.sessions.map((session) => [session.id, session.state])).toEqual([
      [ids[1], "active"],
    ]);
    const stopped = host.listPage({ state: "stopped" }, { offset: 0, limit: 10 });
    expect(stopped.total).toBe(2);
    expect(stopped.sessions[0]).toMatchObject({ id: ids[2], stop_reason: "user_canceled" });
  });

  it("when archived sessions exist, then they are left out unless asked for", () => {
    const { host, ledger, ids } = hostWithSessions(3);
    ledger.store.setArchivedAt(ids[0] ?? "", "2026-01-01T00:00:00.000Z");
    expect(host.listPage({}, { offset: 0, limit: 10 }).total).toBe(2);
    expect(host.listPage({ archive: "only" }, { offset: 0, limit: 10 }).sessions[0]?.id).toBe(
      ids[0],
    );
    expect(host.listSessions({ archive: "include" })).toHaveLength(3);
  });
});

describe("sessionOwner", () => {
  it("when a session is known, then its owner is its workspace by id and name; an unknown id has none", () => {
    const { host, ledger, ws, ids } = hostWithSessions(1);
    const other = ledger.store.ensureWorkspace("/work/b", "b").id;
    const there = ledger.store.createSession({ workspaceId: other, agentName: "demo" }).id;
    expect(host.sessionOwner(ids[0] ?? "")).toEqual({
      session_id: ids[0],
      workspace_id: ws,
      workspace_name: "a",
    });
    expect(host.sessionOwner(there)).toEqual({
      session_id: there,
      workspace_id: other,
      workspace_name: "b",
    });
    expect(host.sessionOwner("ses_nope")).toBeUndefined();
  });
});
