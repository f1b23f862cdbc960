import { describe, expect, it } from "vitest";
import { headerState, headerTitle } from "./session-header-view";

describe("the session header's state", () => {
  it("when the stream is reconnecting, then it says so instead of the last known state", () => {
    expect(headerState({ state: "active" }, "reconnecting")).toEqual({
      text: "Reconnecting…",
      tone: "warn",
    });
  });

  it("when a turn runs, then it says working", () => {
    expect(headerState({ state: "active", activity: { turn_id: "t1" } }, "open")?.text).toBe(
      "working…",
    );
  });

  it("when idle or stopped, then it says ready or the state", () => {
    expect(headerState({ state: "active" }, "open")?.text).toBe("ready");
    expect(headerState({ state: "stopped" }, "open")).toEqual({ text: "stopped", tone: "muted" });
  });
});

describe("the session header's title", () => {
  it("when the session has a name, then that is the title", () => {
    expect(headerTitle({ id: "ses_abcdef123456", name: "  Refactor " })).toBe("Refactor");
  });

  it("when it has none, then a short form of its id", () => {
    expect(headerTitle({ id: "ses_abcdef123456" })).toBe("Session 123456");
  });
});
