import { describe, expect, it } from "vitest";
import { ApiError } from "../../api/http";
import type { Session } from "../../contract/session";
import { COMPACT_COPY, deriveCompactButton, refusalMessage } from "./compact-now-view";

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
    expect(view.command).toBe(command);
  });

  it("is enabled on an idle active session", () => {
    expect(deriveCompactButton(session(), false)).toEqual({
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
  it("puts the daemon's refusals in plain words instead of its log text", () => {
    expect(
      refusalMessage(
        new ApiError("session: prompt already in progress", { status: 409, code: "session_busy" }),
      ),
    ).toBe("The agent is still working on a turn. Try again when it ends, or stop it first.");
    expect(
      refusalMessage(
        new ApiError("session: agent does not advertise a compaction command", {
          status: 409,
          code: "compaction_unsupported",
        }),
      ),
    ).toBe("This agent has no compaction command, so it can't compact on request.");
    expect(
      refusalMessage(
        new ApiError("session: not active", { status: 400, code: "session_not_promptable" }),
      ),
    ).toBe("The session isn't running right now, so it can't take this.");
  });

  it("keeps the daemon's text for a code it does not know", () => {
    expect(
      refusalMessage(
        new ApiError("goal: budget fenced", { status: 409, code: "goal_budget_fenced" }),
      ),
    ).toBe("goal: budget fenced");
  });

  it("says 'Couldn't request compaction. Try again.' for a failure without a code", () => {
    for (const error of [
      new ApiError("The daemon answered 500.", { status: 500 }),
      new Error("boom"),
      "string",
    ]) {
      expect(refusalMessage(error)).toBe("Couldn't request compaction. Try again.");
    }
  });
});

describe("an agent without a compaction command", () => {
  it("keeps Compact now on screen, disabled, and says why", () => {
    const view = deriveCompactButton(session({ available_commands: [] }), false);
    expect(view).toEqual({
      command: undefined,
      disabled: true,
      busy: false,
      reason: COMPACT_COPY.noCommand,
    });
  });

  it("says 'starting' while a starting session may not have advertised its commands", () => {
    expect(
      deriveCompactButton(session({ state: "starting", available_commands: [] }), false).reason,
    ).toBe("Session is starting");
  });
});

describe("Compact now while the daemon is unreachable", () => {
  it("when the stream is down, then the button waits and says why", () => {
    const view = deriveCompactButton(
      { state: "active", available_commands: [{ name: "compact", description: "" }] },
      false,
      true,
    );
    expect(view).toMatchObject({ disabled: true, reason: COMPACT_COPY.offline });
  });
});
