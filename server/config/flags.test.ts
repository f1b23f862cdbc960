import { describe, expect, it } from "vitest";
import { isAllowedHost } from "../http/security";
import {
  builtInDemoAgent,
  DEMO_AGENT_NAME,
  FlagError,
  parseAgentFlag,
  parseDaemonFlags,
} from "./flags";

describe("daemon flags", () => {
  it("when no flags are given, then loopback:4820, .data in cwd, the workspace is cwd and demo is the agent", () => {
    const config = parseDaemonFlags([], {}, "/home/me/project");
    expect(config).toMatchObject({
      port: 4820,
      host: "127.0.0.1",
      dataDir: "/home/me/project/.data",
      workspace: "/home/me/project",
      welcome: true,
    });
    expect(config.agents.map((a) => a.name)).toEqual([DEMO_AGENT_NAME]);
    expect(config.token).toBeUndefined();
    expect(config.configPath).toBeUndefined();
  });

  it("when --config is given, then its path resolves against cwd (no config file is read without it)", () => {
    expect(parseDaemonFlags(["--config", "hooks.toml"], {}, "/w").configPath).toBe("/w/hooks.toml");
    expect(() => parseDaemonFlags(["--config"], {}, "/w")).toThrow(FlagError);
  });

  it("when agents are given, then the first is the default and demo stays available", () => {
    const config = parseDaemonFlags(
      [
        "--agent",
        "claude=npx @zed/claude-code-acp --verbose",
        "--agent",
        "gem=gemini --experimental-acp",
      ],
      {},
      "/w",
    );
    expect(config.agents.map((a) => a.name)).toEqual(["claude", "gem", "demo"]);
    expect(config.agents[0]).toMatchObject({
      command: "npx",
      args: ["@zed/claude-code-acp", "--verbose"],
    });
  });

  it("when a command has quotes, then it is split like a shell would, with no shell involved", () => {
    expect(
      parseAgentFlag(`x=node "my agent.js" --name 'a b' $HOME '$HOME'`, { HOME: "/h" }),
    ).toEqual({
      name: "x",
      command: "node",
      args: ["my agent.js", "--name", "a b", "/h", "$HOME"],
    });
    expect(() => parseAgentFlag("x=agent | tee log")).toThrow(FlagError);
    expect(() => parseAgentFlag("x=agent; rm -rf /")).toThrow(FlagError);
    expect(() => parseAgentFlag("=agent")).toThrow(FlagError);
    expect(() => parseAgentFlag("x=")).toThrow(FlagError);
  });

  it("when another host is bound, then a token is required, from the flag or TIDELINE_TOKEN", () => {
    expect(() => parseDaemonFlags(["--host", "0.0.0.0"], {}, "/w")).toThrow(/needs a token/);
    expect(
      parseDaemonFlags(["--host", "0.0.0.0", "--token", "a-long-enough-token"], {}, "/w").token,
    ).toBe("a-long-enough-token");
    expect(
      parseDaemonFlags(["--host", "0.0.0.0"], { TIDELINE_TOKEN: "e".repeat(16) }, "/w").token,
    ).toBe("e".repeat(16));
  });

  it("when a specific address is bound, then the Host rule admits it; a wildcard bind admits only configured names", () => {
    const lan = parseDaemonFlags(
      ["--host", "192.168.1.5", "--token", "a-long-enough-token"],
      {},
      "/w",
    );
    expect(lan.allowedHosts).toEqual(["192.168.1.5"]);
    expect(isAllowedHost("192.168.1.5:4820", { ...lan, port: () => 4820 })).toBe(true);
    const v6 = parseDaemonFlags(["--host", "fd00::5", "--token", "a-long-enough-token"], {}, "/w");
    expect(isAllowedHost("[fd00::5]:4820", { ...v6, port: () => 4820 })).toBe(true);
    const any = parseDaemonFlags(
      ["--host", "0.0.0.0", "--token", "a-long-enough-token", "--allowed-host", "box.lan"],
      {},
      "/w",
    );
    expect(any.allowedHosts).toEqual(["box.lan"]);
    expect(parseDaemonFlags([], {}, "/w").allowedHosts).toEqual([]);
  });

  it("when flags are wrong, then a FlagError names the problem", () => {
    expect(() => parseDaemonFlags(["--port", "70000"], {}, "/w")).toThrow(FlagError);
    expect(() => parseDaemonFlags(["--bogus"], {}, "/w")).toThrow(FlagError);
    expect(() => parseDaemonFlags(["--agent", "a=x", "--agent", "a=y"], {}, "/w")).toThrow(/twice/);
    expect(() => parseDaemonFlags(["--context-window", "demo=big"], {}, "/w")).toThrow(FlagError);
  });

  it("when context windows, allowed hosts and --no-welcome are given, then they are kept", () => {
    const config = parseDaemonFlags(
      ["--context-window", "claude=200000", "--allowed-host", "box.lan", "--no-welcome"],
      {},
      "/w",
    );
    expect(config.contextWindows).toEqual({ claude: 200000 });
    expect(config.allowedHosts).toEqual(["box.lan"]);
    expect(config.welcome).toBe(false);
  });

  it("when --agent names a preset, then it runs the adapter version Tideline was tried with, and NAME=COMMAND overrides it", () => {
    const config = parseDaemonFlags(
      ["--agent", "claude", "--agent", "codex=/opt/codex-acp --flag"],
      {},
      "/w",
    );
    expect(config.agents.map((a) => [a.name, a.command, a.args, a.preset])).toEqual([
      ["claude", "npx", ["-y", "@agentclientprotocol/claude-agent-acp@0.101.0"], "claude"],
      ["codex", "/opt/codex-acp", ["--flag"], undefined],
      ["demo", process.execPath, expect.any(Array), undefined],
    ]);
    expect(parseAgentFlag("codex")).toEqual({
      name: "codex",
      command: "npx",
      args: ["-y", "@agentclientprotocol/codex-acp@2.6.0"],
      preset: "codex",
    });
  });

  it("when --agent names no preset and has no command, then the error lists the presets", () => {
    expect(() => parseAgentFlag("gemini")).toThrow(
      /NAME=COMMAND or a preset \(demo, claude, codex\)/,
    );
  });

  it("when --agent demo is given, then it is the built-in demo agent, once, in flag order", () => {
    const config = parseDaemonFlags(["--agent", "claude", "--agent", "demo"], {}, "/w");
    expect(config.agents.map((a) => a.name)).toEqual(["claude", DEMO_AGENT_NAME]);
    expect(config.agents[1]).toEqual(builtInDemoAgent("/w/.data"));
    const alone = parseDaemonFlags(["--agent", " demo "], {}, "/w");
    expect(alone.agents.map((a) => a.name)).toEqual([DEMO_AGENT_NAME]);
    expect(() => parseDaemonFlags(["--agent", "demo", "--agent", "demo"], {}, "/w")).toThrow(
      /twice/,
    );
    expect(() => parseDaemonFlags(["--agent", "demo", "--agent", "demo=x"], {}, "/w")).toThrow(
      /twice/,
    );
  });

  it("when --permissions is given, then only ask, reject and allow-once are accepted; ask is the default", () => {
    expect(parseDaemonFlags([], {}, "/w").permissions).toBe("ask");
    expect(parseDaemonFlags(["--permissions", "reject"], {}, "/w").permissions).toBe("reject");
    expect(parseDaemonFlags(["--permissions", "allow-once"], {}, "/w").permissions).toBe(
      "allow-once",
    );
    expect(() => parseDaemonFlags(["--permissions", "allow-always"], {}, "/w")).toThrow(FlagError);
    expect(() => parseDaemonFlags(["--permissions", ""], {}, "/w")).toThrow(FlagError);
  });

  it("when no replay budget is given, then the default one applies; given, then it is used", () => {
    expect(parseDaemonFlags([], {}, "/w").replayBudget).toEqual({
      maxReplayBytes: 131_072,
      maxMessageBytes: 16_384,
    });
    expect(
      parseDaemonFlags(["--replay-max-bytes", "4096", "--replay-max-message-bytes=1024"], {}, "/w")
        .replayBudget,
    ).toEqual({ maxReplayBytes: 4096, maxMessageBytes: 1024 });
  });

  it("when the replay budget breaks its rule or is not a byte count, then the flags are refused with a one-line message", () => {
    for (const argv of [
      ["--replay-max-message-bytes", "1023"],
      ["--replay-max-bytes", "8192"], // below the default per-message bound
      ["--replay-max-bytes", "4096", "--replay-max-message-bytes", "5000"],
      ["--replay-max-bytes", "12kb"],
      ["--replay-max-message-bytes=-2048"],
      ["--replay-max-bytes", ""],
    ]) {
      expect(() => parseDaemonFlags(argv, {}, "/w")).toThrow(FlagError);
      try {
        parseDaemonFlags(argv, {}, "/w");
      } catch (error) {
        expect((error as Error).message).toMatch(/^--replay-max-(message-)?bytes [^\n]+$/);
      }
    }
  });

  it("when --no-session-tools is given, then the session tools are off; by default they are on", () => {
    expect(parseDaemonFlags([], {}, "/w").sessionTools).toBe(true);
    expect(parseDaemonFlags(["--no-session-tools"], {}, "/w").sessionTools).toBe(false);
  });
});
