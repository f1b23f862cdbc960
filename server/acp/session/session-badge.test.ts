import { describe, expect, it } from "vitest";
import { activityOf, badgeOf } from "./session-badge";

describe("the session badge (CompozyOS's CanonicalBadge for what Tideline knows)", () => {
  const base = { stopReason: undefined, pendingApprovals: 0, turnRunning: false } as const;

  it.each([
    ["active and idle", { ...base, state: "active" }, "idle"],
    ["active with a turn running", { ...base, state: "active", turnRunning: true }, "running"],
    ["starting", { ...base, state: "starting" }, "running"],
    ["stopping", { ...base, state: "stopping" }, "running"],
    ["stopped by request", { ...base, state: "stopped", stopReason: "user_canceled" }, "stopped"],
    ["stopped at shutdown", { ...base, state: "stopped", stopReason: "shutdown" }, "stopped"],
    ["stopped with no reason", { ...base, state: "stopped" }, "stopped"],
    [
      "stopped: agent crashed",
      { ...base, state: "stopped", stopReason: "agent_crashed" },
      "failed",
    ],
    ["stopped: error", { ...base, state: "stopped", stopReason: "error" }, "failed"],
    [
      "running with an approval waiting",
      { ...base, state: "active", turnRunning: true, pendingApprovals: 1 },
      "waiting-for-auth",
    ],
    [
      "failed even with an approval left",
      { ...base, state: "stopped", stopReason: "agent_crashed", pendingApprovals: 1 },
      "failed",
    ],
  ] as const)("when %s, then the badge says so", (_what, input, badge) => {
    expect(badgeOf(input)).toBe(badge);
  });
});

describe("the running turn's activity", () => {
  const turn = { id: "t1", startedAt: "2026-12-01T10:00:00.000Z", kind: "prompt" } as const;
  const now = new Date("2026-12-01T10:01:30.500Z");

  it("when the newest row is 20 s old, then idle counts from it and elapsed from the start", () => {
    expect(activityOf(turn, "2026-12-01T10:01:10.000Z", now)).toEqual({
      turn_id: "t1",
      turn_source: "user",
      turn_started_at: turn.startedAt,
      last_activity_at: "2026-12-01T10:01:10.000Z",
      elapsed_ms: 90_500,
      elapsed_seconds: 90,
      idle_seconds: 20,
      iteration_current: 0,
      iteration_max: 0,
    });
  });

  it("when nothing was recorded since the turn began, then idle equals elapsed", () => {
    const activity = activityOf(
      { ...turn, kind: "compact" },
      "2026-12-01T09:00:00.000Z",
      new Date("2026-12-01T10:00:05.000Z"),
    );
    expect(activity).toMatchObject({
      turn_source: "synthetic",
      idle_seconds: 5,
      elapsed_seconds: 5,
      last_activity_at: turn.startedAt,
    });
  });

  it("when the clock reads before the turn start (skew), then no figure is negative", () => {
    const activity = activityOf(turn, turn.startedAt, new Date("2026-12-01T09:59:59.000Z"));
    expect(activity).toMatchObject({ elapsed_ms: 0, idle_seconds: 0 });
  });
});
