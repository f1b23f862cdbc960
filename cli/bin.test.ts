// The installed command itself: `bin/tideline.mjs` as a child process (tsx loader, exit
// codes, streams), and `npx tideline` from this clone.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliBin } from "../server/testing/cli-runner";
import { startTestDaemon, type TestDaemon } from "../server/testing/daemon";
import { CLI_VERSION } from "./version";

let daemon: TestDaemon;
let api: string;
beforeAll(async () => {
  daemon = await startTestDaemon();
  api = await daemon.listen();
});
afterAll(() => daemon?.stop());

describe("bin/tideline.mjs", () => {
  it("when compacting with -o json, then stdout is exactly the four-key object and the exit code 0", async () => {
    const { id } = await daemon.createActiveSession();
    const run = await cliBin(["session", "compact", id, "-o", "json"], { TIDELINE_API: api });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const record = JSON.parse(run.stdout);
    expect(Object.keys(record)).toEqual(["session_id", "prompt_id", "command", "outcome"]);
    expect(record).toMatchObject({ session_id: id, command: "compact", outcome: "completed" });
  });

  it("when asked for help, then every command explains itself and exits 0", async () => {
    const root = await cliBin(["--help"]);
    expect(root.code).toBe(0);
    expect(root.stdout).toMatch(/Usage: tideline \[options\] \[command\]/);
    expect(root.stdout).toMatch(/Exit codes:/);
    // One process each, started together: seven tsx start-ups in a row outlast the timeout
    // on a loaded 2-core machine.
    const commands = ["compact", "prompt", "usage", "history", "events", "audit"];
    const helps = await Promise.all([
      ...commands.map((command) => cliBin(["session", command, "--help"])),
      cliBin(["sessions", "--help"]),
    ]);
    commands.forEach((command, index) => {
      expect(helps[index]?.code).toBe(0);
      expect(helps[index]?.stdout).toContain(`Usage: tideline session ${command}`);
    });
    expect(helps.at(-1)?.stdout).toContain("Usage: tideline sessions");
  }, 60_000);

  it("when the daemon is not there, then one line on stderr and exit 1; a bad flag exits 2", async () => {
    const run = await cliBin(["sessions"], { TIDELINE_API: "http://127.0.0.1:1" });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      /^error: cannot reach the daemon at http:\/\/127\.0\.0\.1:1 \(.+\)\n$/,
    );
    const bad = await cliBin(["sessions", "--frobnicate"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown option '--frobnicate'/);
  });

  it("when run with npx from the clone, then it is the package's bin", async () => {
    const { stdout } = await promisify(execFile)("npx", ["--no-install", "tideline", "--version"], {
      cwd: new URL("..", import.meta.url),
    });
    expect(stdout.trim()).toBe(CLI_VERSION);
  });
});
