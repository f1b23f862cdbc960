import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadDaemonConfig, parseDaemonConfig, parseDuration } from "./hook-config";

const BASE = "/etc/tideline";

describe("parseDaemonConfig", () => {
  it("when a declaration is complete, then every field is read and the command stays a bare name", () => {
    const hooks = parseDaemonConfig(
      `
[[hooks.declarations]]
name = "log-compactions"
event = "context.post_compact"
command = "tee"
args = ["-a", "compactions.jsonl"]
timeout = "250ms"
env = { TARGET = "ci" }
[hooks.declarations.matcher]
compaction_trigger = "requested"
`,
      BASE,
    );
    expect(hooks).toEqual([
      {
        name: "log-compactions",
        event: "context.post_compact",
        command: "tee",
        args: ["-a", "compactions.jsonl"],
        env: { TARGET: "ci" },
        compactionTrigger: "requested",
        timeoutMs: 250,
        cwd: BASE,
      },
    ]);
  });

  it("when optional fields are left out, then the timeout is 5 s, no matcher, no args", () => {
    const [hook] = parseDaemonConfig(
      `[[hooks.declarations]]\nname = "a"\nevent = "context.pre_compact"\ncommand = "./hooks/a.sh"\n`,
      BASE,
    );
    expect(hook).toEqual({
      name: "a",
      event: "context.pre_compact",
      command: "/etc/tideline/hooks/a.sh",
      args: [],
      env: {},
      timeoutMs: 5000,
      cwd: BASE,
    });
  });

  it("when the file has no hooks at all, then there are none", () => {
    expect(parseDaemonConfig("", BASE)).toEqual([]);
    expect(parseDaemonConfig("[hooks]\n", BASE)).toEqual([]);
  });

  it.each([
    ["not TOML", "[[hooks.declarations]\nname=", /not valid TOML/],
    ["an unknown top-level key", 'agents = "x"', /unrecognized key/i],
    [
      "an unknown event",
      '[[hooks.declarations]]\nname="a"\nevent="tool.pre_call"\ncommand="x"',
      /event/,
    ],
    [
      "a sync mode (hooks may not hold up the recording)",
      '[[hooks.declarations]]\nname="a"\nevent="context.pre_compact"\nmode="sync"\ncommand="x"',
      /mode/,
    ],
    [
      "a misspelt field",
      '[[hooks.declarations]]\nname="a"\nevent="context.pre_compact"\ncomand="x"',
      /comand|command/,
    ],
    [
      "an unknown trigger",
      '[[hooks.declarations]]\nname="a"\nevent="context.pre_compact"\ncommand="x"\nmatcher={compaction_trigger="auto"}',
      /compaction_trigger/,
    ],
    [
      "a timeout without unit",
      '[[hooks.declarations]]\nname="a"\nevent="context.pre_compact"\ncommand="x"\ntimeout="5"',
      /timeout/,
    ],
    [
      "a timeout as a number",
      '[[hooks.declarations]]\nname="a"\nevent="context.pre_compact"\ncommand="x"\ntimeout=5',
      /timeout/,
    ],
    [
      "args that are not strings",
      '[[hooks.declarations]]\nname="a"\nevent="context.pre_compact"\ncommand="x"\nargs=[1]',
      /args/,
    ],
    [
      "an empty command",
      '[[hooks.declarations]]\nname="a"\nevent="context.pre_compact"\ncommand=""',
      /command/,
    ],
    [
      "a name with spaces",
      '[[hooks.declarations]]\nname="a b"\nevent="context.pre_compact"\ncommand="x"',
      /name/,
    ],
    [
      "a bad env name",
      '[[hooks.declarations]]\nname="a"\nevent="context.pre_compact"\ncommand="x"\nenv={"A-B"="1"}',
      /env/,
    ],
    [
      "the same name twice",
      '[[hooks.declarations]]\nname="a"\nevent="context.pre_compact"\ncommand="x"\n[[hooks.declarations]]\nname="a"\nevent="context.post_compact"\ncommand="x"',
      /used twice/,
    ],
  ])("when the file has %s, then it is refused with a reason", (_label, text, reason) => {
    expect(() => parseDaemonConfig(text, BASE)).toThrow(ConfigError);
    expect(() => parseDaemonConfig(text, BASE)).toThrow(reason);
  });
});

describe("parseDuration", () => {
  it("when given Go-style durations, then milliseconds; otherwise nothing", () => {
    expect(parseDuration("250ms")).toBe(250);
    expect(parseDuration("1.5s")).toBe(1500);
    expect(parseDuration("2m")).toBe(120_000);
    for (const bad of ["", "5", "-1s", "0s", "1h", "1 s s", "NaNs"]) {
      expect(parseDuration(bad)).toBeUndefined();
    }
  });
});

describe("loadDaemonConfig", () => {
  it("when the file is missing, then the error names it; when present, relative commands resolve beside it", () => {
    const dir = mkdtempSync(join(tmpdir(), "tideline-config-"));
    try {
      expect(() => loadDaemonConfig(join(dir, "nope.toml"))).toThrow(/nope\.toml: .*ENOENT/);
      const path = join(dir, "config.toml");
      writeFileSync(
        path,
        '[[hooks.declarations]]\nname="a"\nevent="context.pre_compact"\ncommand="./a.sh"\n',
      );
      const [hook] = loadDaemonConfig(path);
      expect(hook?.command).toBe(join(dir, "a.sh"));
      expect(hook?.cwd).toBe(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
