import { describe, expect, it } from "vitest";
import type { Session } from "../contract/session";
import { sessionEvents } from "./session-events";

function session(fields: Partial<Session> = {}): Session {
  return {
    id: "ses_1",
    workspace_id: "ws_1",
    agent_name: "demo",
    name: "Billing",
    state: "active",
    available_commands: [],
    created_at: "2026-12-01T10:00:00Z",
    updated_at: "2026-12-01T10:00:00Z",
    ...fields,
  };
}

const busy = (source = "user") => ({ activity: { turn_id: "turn-1", turn_source: source } });
const approval = (id: string, status = "pending") => ({
  pending_interactions: [
    {
      interaction_id: id,
      kind: "permission",
      provider_request_id: id,
      status,
      title: "Edit src/a.ts",
      created_at: "2026-12-01T10:00:01Z",
    },
  ],
});

function step(before: Partial<Session>, after: Partial<Session>) {
  const first = sessionEvents(undefined, [session(before)]);
  return sessionEvents(first.marks, [session(after)]).events;
}

describe("sessionEvents", () => {
  it("when the list is read for the first time, then nothing is announced", () => {
    expect(sessionEvents(undefined, [session({ ...busy(), ...approval("p1") })]).events).toEqual(
      [],
    );
  });

  it("when a turn ends, then a turn event; a Compact now turn ends as a compaction", () => {
    expect(step(busy(), {})).toEqual([
      {
        kind: "turn",
        sessionId: "ses_1",
        workspaceId: "ws_1",
        sessionName: "Billing",
        turnId: "turn-1",
      },
    ]);
    expect(step(busy("synthetic"), {}).map((event) => event.kind)).toEqual(["compaction"]);
    // One turn followed at once by the next still ended.
    expect(step(busy(), { activity: { turn_id: "turn-2" } }).map((event) => event.kind)).toEqual([
      "turn",
    ]);
    expect(step(busy(), busy())).toEqual([]);
  });

  it("when a new approval is pending, then it is announced once with what it asks", () => {
    expect(step({}, approval("p1"))).toEqual([
      expect.objectContaining({ kind: "approval", detail: "Edit src/a.ts" }),
    ]);
    expect(step(approval("p1"), approval("p1"))).toEqual([]);
    expect(step({}, approval("p1", "resolved"))).toEqual([]);
  });

  it("when the agent crashes, then a crash with the daemon's detail; a plain stop is not one", () => {
    const crashed = {
      state: "stopped" as const,
      stop_reason: "agent_crashed",
      stop_detail: "exit 1",
    };
    expect(step({}, crashed)).toEqual([
      expect.objectContaining({ kind: "crash", detail: "exit 1" }),
    ]);
    expect(step({}, { state: "stopped", stop_reason: "user_canceled" })).toEqual([]);
    expect(step(crashed, crashed)).toEqual([]);
  });

  it("when a session appears or has no name, then it has no history and a readable name", () => {
    const first = sessionEvents(undefined, []);
    expect(sessionEvents(first.marks, [session(busy())]).events).toEqual([]);
    expect(step({ ...busy(), name: "  " }, { name: "  " })[0]?.sessionName).toBe(
      "Untitled session",
    );
  });
});
