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

describe("describeEvent on CompozyOS's event payloads", () => {
  it.each([
    [
      { type: "plan", raw: { entries: [{ status: "completed" }, { status: "completed" }] } },
      "Plan updated · 2 of 2 steps done",
    ],
    [
      { type: "permission", request_id: "perm-1", title: "Run npm test", decision: "allow-once" },
      "Permission requested: Run npm test · allowed once",
    ],
    [{ type: "runtime_progress", text: "Still reading files" }, "Still reading files"],
    [{ type: "runtime_warning", text: "No output for 120 s" }, "Warning: No output for 120 s"],
    [{ type: "error", error: "provider overloaded" }, "Error: provider overloaded"],
    [{ type: "session_stopped", stop_reason: "idle_timeout" }, "Session stopped — idle_timeout"],
    [{ type: "system", title: "Available commands updated" }, "Available commands updated"],
    [
      { type: "transcript_marker.created", marker: { summary: "Provider failed over" } },
      "Note: Provider failed over",
    ],
    [
      { type: "session.compaction_fired", raw: { strategy: "pressure" } },
      "Compaction started (pressure)",
    ],
  ])("%o reads %s", (data, line) => {
    expect(describeEvent(data)).toBe(line);
  });

  it.each(["tool_call", "tool_result", "usage"])(
    "a %s event draws no line of its own (its row shows it)",
    (type) => {
      expect(describeEvent({ type, title: "Read a.ts" })).toBeUndefined();
    },
  );
});
