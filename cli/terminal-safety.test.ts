// Every human-format output of the CLI against a real daemon whose agent (a real process)
// answers with terminal attacks: none of its control bytes reach the terminal raw.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliIn } from "../server/testing/cli-runner";
import { startTestDaemon, type TestDaemon } from "../server/testing/daemon";
import { humanSafe, terminalText } from "./output";

let daemon: TestDaemon;
let api: string;

beforeAll(async () => {
  daemon = await startTestDaemon({
    agents: [
      {
        name: "hostile",
        command: process.execPath,
        args: [
          fileURLToPath(
            new URL("../server/testing/fixtures/hostile-bytes-agent.mjs", import.meta.url),
          ),
        ],
      },
    ],
  });
  api = await daemon.listen();
});
afterAll(() => daemon?.stop());

// ESC, BEL, and the C1 controls (U+0080–U+009F): what moves a cursor, retitles or links.
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for terminal controls
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function expectNoControls(run: { stdout: string; stderr: string }) {
  expect(run.stdout).not.toMatch(CONTROL);
  expect(run.stderr).not.toMatch(CONTROL);
}

describe("the CLI's human output and agent bytes", () => {
  it("when session prompt --wait prints an agent's reply, then its escapes are gone and its lines kept", async () => {
    const session = await daemon.createActiveSession("hostile");
    // On a terminal too, where the CLI's own colours are on.
    for (const tty of [false, true]) {
      const run = await cliIn(api, ["session", "prompt", session.id, "hi", "--wait"], { tty });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("Hello");
      expect(run.stdout).toContain("\nsecond line\tend");
      expect(run.stdout).not.toMatch(CONTROL);
      expect(run.stdout).not.toContain("\u009b");
    }
  });

  it("when session compact fails with an agent's error, then the outcome line has no escapes", async () => {
    const session = await daemon.createActiveSession("hostile");
    const run = await cliIn(api, ["session", "compact", session.id]);
    expect(run.code).toBe(4);
    expectNoControls(run);
    expect(run.stdout).toMatch(/Compaction failed: context .* too small/);
  });

  it("when session usage --turns lists a compaction whose id is hostile, then the table has no escapes", async () => {
    const session = await daemon.createActiveSession("hostile");
    expect((await cliIn(api, ["session", "compact", session.id])).code).toBe(4);
    const run = await cliIn(api, ["session", "usage", session.id, "--turns"]);
    expect(run.code).toBe(0);
    expectNoControls(run);
    expect(run.stdout).toMatch(/COMPACTION/);
    expect(run.stdout).toMatch(/cmp/);
  });

  it("when the session history and events are shown, then no agent control byte is printed", async () => {
    const session = await daemon.createActiveSession("hostile");
    await cliIn(api, ["session", "prompt", session.id, "hi", "--wait"]);
    expectNoControls(await cliIn(api, ["session", "history", session.id]));
    expectNoControls(await cliIn(api, ["session", "events", session.id]));
  });
});

describe("terminalText", () => {
  it("when text has controls, bidi overrides or C1 bytes, then they go; newlines and tabs stay", () => {
    expect(terminalText("a\u001b[2Jb\u001b]0;t\u0007c\u202ed\u009be\r\nf\tg")).toBe(
      "a[2Jb]0;tcde\nf\tg",
    );
  });
});

describe("humanSafe", () => {
  it("when a line mixes the CLI's own colours with foreign escapes, then only the CLI's colours survive", () => {
    const line = `\u001b[1mTURN\u001b[22m \u001b]8;;http://x\u001b\\id\u001b[2J\u001b[31mred\u001b[39m`;
    expect(humanSafe(line)).toBe(
      "\u001b[1mTURN\u001b[22m ]8;;http://x\\id[2J\u001b[31mred\u001b[39m",
    );
  });
});
