import { describe, expect, it } from "vitest";
import { PHASE_STATUS, sessionPhase } from "./session-phase";

const active = { state: "active" as const };
const running = { state: "active" as const, activity: { turn_id: "t1" } };

describe("sessionPhase: one reading of what a session does, for every surface", () => {
  it("when the daemon is unreachable, then it says Reconnecting… whatever was last known", () => {
    for (const session of [active, running, { state: "stopped" as const }]) {
      expect(sessionPhase(session, { offline: true, compacting: true })).toBe("offline");
    }
    expect(PHASE_STATUS.offline).toEqual({ text: "Reconnecting…", tone: "warn" });
  });

  it("when the transcript's newest compaction runs, then the session is compacting, not just working", () => {
    expect(sessionPhase(running, { offline: false, compacting: true })).toBe("compacting");
    expect(PHASE_STATUS.compacting.text).toBe("compacting…");
  });

  it("when the compaction ended in the transcript, then it stops saying compacting at once", () => {
    expect(sessionPhase(running, { offline: false, compacting: false })).toBe("turn");
    expect(sessionPhase(active, { offline: false, compacting: false })).toBe("ready");
  });

  it("when the session is stopped, then a compaction left open does not make it compacting", () => {
    expect(sessionPhase({ state: "stopped" }, { offline: false, compacting: true })).toBe(
      "stopped",
    );
  });

  it.each([
    ["starting", "starting"],
    ["stopping", "stopping"],
    ["stopped", "stopped"],
  ] as const)("when the session is %s, then it reads as itself", (state, text) => {
    expect(PHASE_STATUS[sessionPhase({ state })].text).toBe(text);
  });
});
