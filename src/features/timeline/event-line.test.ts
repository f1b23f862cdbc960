import { describe, expect, it } from "vitest";
import { describeEvent } from "./event-line";

describe("describeEvent", () => {
  it.each([
    [
      { type: "plan", entries: [{ status: "completed" }, { status: "pending" }] },
      "Plan updated · 1 of 2 steps done",
    ],
    [{ type: "plan" }, "Plan updated"],
    [
      { type: "permission", toolCall: { title: "Edit a.ts" }, outcome: { outcome: "cancelled" } },
      "Permission requested: Edit a.ts · cancelled",
    ],
    [{ type: "agent.exited", code: 1, signal: null }, "Agent exited with code 1"],
    [{ type: "agent.exited", code: null, signal: "SIGTERM" }, "Agent exited on signal SIGTERM"],
    [
      { type: "session.state", state: "stopped", reason: "agent exited" },
      "Session stopped — agent exited",
    ],
    [
      { type: "agent.unknown_update", sessionUpdate: "usage_update_v9" },
      "Unrecognised agent update (usage_update_v9)",
    ],
    [
      { type: "agent.invalid_frame", error: "missing status" },
      "Ignored an invalid agent update: missing status",
    ],
    [{ type: "brand.new" }, "Agent event: brand.new"],
  ])("%o reads %s", (data, line) => {
    expect(describeEvent(data)).toBe(line);
  });
});
