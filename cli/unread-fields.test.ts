import { describe, expect, it } from "vitest";
import { SessionEnvelope } from "../src/contract/session";
import { withUnreadFields } from "./unread-fields";

const sent = {
  session: {
    id: "s1",
    workspace_id: "w1",
    agent_name: "demo",
    state: "active",
    available_commands: null,
    activity: { turn_id: "t1", elapsed_seconds: 3, vendor: { x: 1 } },
    created_at: "2026-12-01T08:00:00Z",
    updated_at: "2026-12-01T08:00:01Z",
    lineage: [{ id: "p1" }],
  },
};

describe("withUnreadFields", () => {
  it("when the contract drops fields it does not name, then they come back as sent, at every depth, in the daemon's order", () => {
    const read = SessionEnvelope.parse(sent);
    expect(read.session).not.toHaveProperty("lineage");
    const printed = withUnreadFields(read, sent);
    expect(printed.session.activity).toEqual(sent.session.activity);
    expect(printed.session).toMatchObject({ lineage: [{ id: "p1" }] });
    expect(Object.keys(printed.session)).toEqual(Object.keys(sent.session));
  });

  it("when the contract read a value differently (a Go null slice), then its reading wins", () => {
    const printed = withUnreadFields(SessionEnvelope.parse(sent), sent);
    expect(printed.session.available_commands).toEqual([]);
  });
});
