import { describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS, OptionsError, parseAgentOptions } from "./options";

describe("parseAgentOptions", () => {
  it("when nothing is given, then the defaults hold: watchable speed, 200,000 tokens, 80 %, compact", () => {
    expect(parseAgentOptions([], {})).toEqual(DEFAULT_OPTIONS);
    expect(DEFAULT_OPTIONS).toMatchObject({
      speed: 1,
      contextSize: 200_000,
      autoCompactAt: 0.8,
      commands: "compact",
    });
  });

  it("when flags are given in both spellings, then each is read", () => {
    expect(
      parseAgentOptions(
        [
          "--speed",
          "0",
          "--context-size=50000",
          "--auto-compact-at",
          "0.5",
          "--commands=compress",
          "--state-dir",
          "/tmp/x",
        ],
        {},
      ),
    ).toEqual({
      speed: 0,
      contextSize: 50_000,
      autoCompactAt: 0.5,
      commands: "compress",
      stateDir: "/tmp/x",
      loadSession: true,
    });
  });

  it("when the environment sets values, then they apply unless a flag says otherwise", () => {
    const env = {
      DEMO_AGENT_SPEED: "3",
      DEMO_AGENT_CONTEXT_SIZE: "64000",
      DEMO_AGENT_AUTO_COMPACT_AT: "0.9",
      DEMO_AGENT_COMMANDS: "none",
      DEMO_AGENT_STATE_DIR: "/tmp/env",
    };
    expect(parseAgentOptions([], env)).toEqual({
      speed: 3,
      contextSize: 64_000,
      autoCompactAt: 0.9,
      commands: "none",
      stateDir: "/tmp/env",
      loadSession: true,
    });
    expect(parseAgentOptions(["--speed", "0"], env).speed).toBe(0);
  });

  it.each([
    [["--speed", "-1"]],
    [["--speed", "fast"]],
    [["--context-size", "12.5"]],
    [["--auto-compact-at", "0"]],
    [["--auto-compact-at", "1.5"]],
    [["--commands", "summarize"]],
    [["--colour", "red"]],
    [["--speed"]],
    [["stray"]],
  ])("when given %j, then it is refused", (argv) => {
    expect(() => parseAgentOptions(argv, {})).toThrow(OptionsError);
  });

  it("when --no-load-session or DEMO_AGENT_NO_LOAD_SESSION is given, then loadSession is off; a value on the switch is refused", () => {
    expect(parseAgentOptions(["--no-load-session"], {}).loadSession).toBe(false);
    expect(parseAgentOptions([], { DEMO_AGENT_NO_LOAD_SESSION: "1" }).loadSession).toBe(false);
    expect(parseAgentOptions([], { DEMO_AGENT_NO_LOAD_SESSION: "false" }).loadSession).toBe(true);
    expect(parseAgentOptions([], {}).loadSession).toBe(true);
    expect(() => parseAgentOptions(["--no-load-session=yes"], {})).toThrow(OptionsError);
    expect(() => parseAgentOptions([], { DEMO_AGENT_NO_LOAD_SESSION: "maybe" })).toThrow(
      /DEMO_AGENT_NO_LOAD_SESSION/,
    );
  });
});
