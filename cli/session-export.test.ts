// `tideline session export` against the real daemon and demo agent: Markdown to stdout,
// JSONL to a private file, a TTY that never gets raw control bytes, and clear refusals.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliIn } from "../server/testing/cli-runner";
import { startTestDaemon, type TestDaemon } from "../server/testing/daemon";
import { promptAndWait } from "../server/testing/session-driver";

let daemon: TestDaemon;
let api: string;
let id: string;
const dir = mkdtempSync(join(tmpdir(), "tideline-export-"));

beforeAll(async () => {
  daemon = await startTestDaemon();
  api = await daemon.listen();
  id = (await daemon.createActiveSession()).id;
  await promptAndWait(daemon, id, "Explain the ledger \u001b]0;owned\u0007 in two lines");
});
afterAll(async () => {
  await daemon?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("tideline session export", () => {
  it("when run with no format, then stdout is the session's Markdown transcript", async () => {
    const run = await cliIn(api, ["session", "export", id]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^# /);
    expect(run.stdout).toContain("### You\n\nExplain the ledger");
    expect(run.stdout).toContain("### Agent");
    // To a pipe the bytes are the daemon's, control characters and all.
    expect(run.stdout).toContain("\u001b]0;owned\u0007");
  });

  it("when stdout is a terminal, then the export's control characters are removed", async () => {
    const run = await cliIn(api, ["session", "export", id], { tty: true });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Explain the ledger ]0;owned in two lines");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for raw controls
    expect(run.stdout).not.toMatch(/[\u001b\u0007]/);
  });

  it("when --format jsonl --file is given, then the ledger rows go to a 0600 file", async () => {
    const file = join(dir, "session.jsonl");
    const run = await cliIn(api, ["session", "export", id, "--format", "jsonl", "--file", file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`Wrote ${file}\n`);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    const rows = lines.map((line) => JSON.parse(line) as { sequence: number; type: string });
    expect(rows.map((row) => row.sequence)).toEqual(
      rows.map((_, index) => (rows[0]?.sequence ?? 0) + index),
    );
    expect(rows.some((row) => row.type === "input")).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("when the format is unknown or the session is not there, then it says so and exits non-zero", async () => {
    const bad = await cliIn(api, ["session", "export", id, "--format", "pdf"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--format must be one of md, json, jsonl");
    const missing = await cliIn(api, ["session", "export", "ses_missing"]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/ses_missing/);
  });
});
