import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../contract/error";
import { ApiError } from "./http";
import { followRefusal, type Refusal, refusalText } from "./refusal-words";

const error = (code: string | undefined, message = "daemon text") =>
  new ApiError(message, { status: 409, ...(code ? { code } : {}) });

describe("refusalText", () => {
  it("when the daemon refuses a prompt because a turn runs, then it says so in plain words", () => {
    expect(refusalText(error("session_busy", "session: prompt already in progress"))).toBe(
      "The agent is still working on a turn. Try again when it ends, or stop it first.",
    );
  });

  it.each(ERROR_CODES)(
    "when the code is %s (documented), then the daemon's log text is not shown raw",
    (code) => {
      const text = refusalText(error(code, "pkg: raw log text"));
      expect(text).not.toBe("pkg: raw log text");
      expect(text).not.toMatch(/^[a-z]+: /);
    },
  );

  it("when the request was invalid or the agent refused, then the daemon's detail is kept, framed", () => {
    expect(refusalText(error("invalid_request", "decision: not offered"))).toBe(
      "The daemon refused the request: decision: not offered",
    );
    expect(refusalText(error("agent_request_failed", "mode not supported"))).toBe(
      "The agent refused: mode not supported",
    );
  });

  it("when the code is unknown or missing, then the daemon's own text is shown", () => {
    expect(refusalText(error("window_manager_slow_consumer", "slow consumer"))).toBe(
      "slow consumer",
    );
    expect(refusalText(error(undefined, "The daemon answered 502."))).toBe(
      "The daemon answered 502.",
    );
    expect(refusalText(new Error("boom"))).toBe("boom");
    expect(refusalText({ hostile: true })).toBe("Something went wrong.");
  });

  it("when a hostile daemon sends a code named like an object key, then its text is kept", () => {
    expect(refusalText(error("__proto__", "proto"))).toBe("proto");
    expect(refusalText(error("constructor", "ctor"))).toBe("ctor");
  });
});

describe("followRefusal", () => {
  const busy: Refusal = { message: "busy", code: "session_busy", turnId: "t1", state: "active" };
  const at = (turnId: string | undefined, state = "active") => ({ turnId, state });

  it("keeps a busy refusal while its turn runs", () => {
    expect(followRefusal(busy, at("t1"))).toBe(busy);
    expect(followRefusal(null, at("t1"))).toBeNull();
  });

  it("clears a busy refusal when the turn it waited on ends, or was replaced", () => {
    expect(followRefusal(busy, at(undefined))).toBeNull();
    expect(followRefusal(busy, at("t3"))).toBeNull();
  });

  it("follows the turn that starts after a refusal seen while idle, then clears when it ends", () => {
    const idle = { ...busy, turnId: undefined };
    expect(followRefusal(idle, at(undefined))).toBe(idle);
    const following = followRefusal(idle, at("t2"));
    expect(following).toEqual({ ...busy, turnId: "t2" });
    expect(followRefusal(following, at(undefined))).toBeNull();
  });

  it("clears 'not running' when the session's state changes", () => {
    const notRunning: Refusal = { ...busy, code: "session_not_promptable", state: "starting" };
    expect(followRefusal(notRunning, at(undefined, "starting"))).toBe(notRunning);
    expect(followRefusal(notRunning, at(undefined, "active"))).toBeNull();
  });

  it("keeps any other refusal until the next attempt", () => {
    const other: Refusal = { ...busy, code: "session_archived" };
    expect(followRefusal(other, at(undefined))).toBe(other);
  });
});
