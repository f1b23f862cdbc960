import { describe, expect, it } from "vitest";
import { ApiError } from "../../api/http";
import type { Session } from "../../contract/session";
import {
  COMPACT_COPY,
  deriveCompactButton,
  followRefusal,
  refusalMessage,
} from "./compact-now-view";

type SessionShape = Pick<Session, "state" | "activity" | "available_commands">;

function session(extra: Partial<SessionShape> = {}): SessionShape {
  return {
    state: "active",
    available_commands: [{ name: "compact", description: "Compact the context" }],
    ...extra,
  };
}

describe("deriveCompactButton", () => {
  it.each([
    [[], undefined],
    [["/compact", "Compact", "compact-now"], undefined],
    [["compress"], "compress"],
    [[" compress ", "compact"], "compact"],
    [["review", " compact"], "compact"],
  ])("commands %j offer %s", (names, command) => {
    const view = deriveCompactButton(
      session({ available_commands: names.map((name) => ({ name, description: "" })) }),
      false,
    );
    expect(view.visible ? view.command : undefined).toBe(command);
  });

  it("is enabled on an idle active session", () => {
    expect(deriveCompactButton(session(), false)).toEqual({
      visible: true,
      command: "compact",
      disabled: false,
      busy: false,
      reason: undefined,
    });
  });

  it.each([
    ["starting", "Session is starting"],
    ["stopping", "Session is stopping"],
    ["stopped", "Session is stopped"],
  ] as const)("is disabled while the session is %s", (state, reason) => {
    expect(deriveCompactButton(session({ state }), false)).toMatchObject({
      disabled: true,
      reason,
    });
  });

  it("is disabled while a turn runs, whatever its kind", () => {
    for (const kind of ["prompt", "compact", undefined] as const) {
      const activity = { turn_id: "t1", ...(kind ? { kind } : {}) };
      expect(deriveCompactButton(session({ activity }), false)).toMatchObject({
        disabled: true,
        reason: "A turn is running",
      });
    }
    expect(
      deriveCompactButton(session({ activity: { turn_source: "user" } }), false),
    ).toMatchObject({
      disabled: false,
    });
  });

  it("is busy while its own request is in flight, which outranks every other reason", () => {
    expect(
      deriveCompactButton(session({ state: "stopped", activity: { turn_id: "t" } }), true),
    ).toMatchObject({ disabled: true, busy: true, reason: "Requesting compaction…" });
  });
});

describe("refusalMessage", () => {
  it("gives the daemon's text for session_busy and compaction_unsupported", () => {
    expect(
      refusalMessage(
        new ApiError("session: prompt already in progress", { status: 409, code: "session_busy" }),
      ),
    ).toBe("session: prompt already in progress");
    expect(
      refusalMessage(
        new ApiError("session: agent does not advertise a compaction command", {
          status: 409,
          code: "compaction_unsupported",
        }),
      ),
    ).toBe("session: agent does not advertise a compaction command");
  });

  it("says 'Couldn't request compaction. Try again.' for anything else", () => {
    for (const error of [
      new ApiError("session is not active", { status: 400, code: "session_not_promptable" }),
      new ApiError("Couldn't reach the daemon.", { status: 0, code: "network" }),
      new ApiError("The daemon answered 500.", { status: 500 }),
      new Error("boom"),
      "string",
    ]) {
      expect(refusalMessage(error)).toBe("Couldn't request compaction. Try again.");
    }
  });
});

describe("followRefusal", () => {
  const refusal = { message: "session: prompt already in progress", turnId: "t1" };

  it("keeps the same refusal while its turn runs", () => {
    expect(followRefusal(refusal, "t1")).toBe(refusal);
    expect(followRefusal(null, "t1")).toBeNull();
  });

  it("clears when the turn it waited on ends", () => {
    expect(followRefusal(refusal, undefined)).toBeNull();
  });

  it("follows the turn that starts after a refusal seen while idle, then clears when it ends", () => {
    const idle = { message: "x", turnId: undefined };
    expect(followRefusal(idle, undefined)).toBe(idle);
    const following = followRefusal(idle, "t2");
    expect(following).toEqual({ message: "x", turnId: "t2" });
    expect(followRefusal(following, undefined)).toBeNull();
  });

  it("clears when its turn was replaced by another one (it ended in between)", () => {
    expect(followRefusal(refusal, "t3")).toBeNull();
  });
});

describe("Compact now while the daemon is unreachable", () => {
  it("when the stream is down, then the button waits and says why", () => {
    const view = deriveCompactButton(
      { state: "active", available_commands: [{ name: "compact", description: "" }] },
      false,
      true,
    );
    expect(view).toMatchObject({ visible: true, disabled: true, reason: COMPACT_COPY.offline });
  });
});
