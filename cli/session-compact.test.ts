// `tideline session compact` against the real daemon and real agent processes: every
// outcome, every refusal, every output format.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { decode as decodeToon } from "@toon-format/toon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliIn, waitUntil } from "../server/testing/cli-runner";
import { demoAgent, startTestDaemon, type TestDaemon } from "../server/testing/daemon";

let daemon: TestDaemon;
let api: string;

let agentState: string;

beforeAll(async () => {
  agentState = mkdtempSync(join(tmpdir(), "tideline-cli-agents-"));
  daemon = await startTestDaemon({
    agents: [
      demoAgent(agentState),
      demoAgent(agentState, "nocompact", ["--commands", "none"]),
      {
        name: "quiet",
        command: process.execPath,
        args: [
          fileURLToPath(
            new URL("../server/testing/fixtures/quiet-compact-agent.mjs", import.meta.url),
          ),
        ],
      },
    ],
  });
  api = await daemon.listen();
});
afterAll(async () => {
  await daemon?.stop();
  rmSync(agentState, { recursive: true, force: true });
});

async function sessionWith(prompt?: string, agent?: string): Promise<string> {
  const session = await daemon.createActiveSession(agent);
  if (prompt !== undefined) {
    const run = await cliIn(api, ["session", "prompt", session.id, prompt, "--wait"]);
    expect(run.code).toBe(0);
  }
  return session.id;
}

type Event = { turn_id: string; content: Record<string, unknown> };
/** The daemon's own answer, as the CLI reads it over HTTP. */
async function daemonJson(path: string): Promise<{ events: Event[] }> {
  return (await (await daemon.call("GET", path)).json()) as { events: Event[] };
}

function fourKeys(stdout: string, id: string) {
  const record = JSON.parse(stdout) as Record<string, unknown>;
  expect(Object.keys(record)).toEqual(["session_id", "prompt_id", "command", "outcome"]);
  expect(record.session_id).toBe(id);
  expect(record.command).toBe("compact");
  expect(record.prompt_id).toEqual(expect.any(String));
  return record;
}

describe("tideline session compact", () => {
  it("when the compaction completes, then the requested line, the outcome line, exit 0, and the request is attributed to the CLI", async () => {
    const id = await sessionWith();
    const run = await cliIn(api, ["session", "compact", id]);
    expect(run.stderr).toBe("");
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Compaction requested: \/compact \(prompt [\w-]+\)$/);
    expect(lines[1]).toBe("Compaction completed");
    expect(run.code).toBe(0);
    const turnId = /prompt ([\w-]+)\)/.exec(lines[0] ?? "")?.[1];
    const { events: requested } = await daemonJson(
      `${daemon.sessionPath(id)}/events?type=session.compaction.requested`,
    );
    expect(requested).toHaveLength(1);
    expect(requested[0]?.turn_id).toBe(turnId);
    expect(requested[0]?.content).toMatchObject({ command: "compact", requested_by: "cli" });
  });

  it("when -o json, then stdout is exactly the four-key object after the turn ended", async () => {
    const id = await sessionWith();
    const run = await cliIn(api, ["session", "compact", id, "-o", "json"]);
    expect(run.code).toBe(0);
    const record = fourKeys(run.stdout, id);
    expect(record.outcome).toBe("completed");
    // The turn really is over when the command returns.
    const { events: ended } = await daemonJson(
      `${daemon.sessionPath(id)}/events?type=prompt.completed&turn_id=${record.prompt_id}`,
    );
    expect(ended).toHaveLength(1);
    expect(run.stdout).toBe(`${JSON.stringify(record, null, 2)}\n`);
  });

  it("when --json, -o jsonl or -o toon, then the same record as JSON, one line, or a TOON object named session_compact", async () => {
    const id = await sessionWith();
    const json = await cliIn(api, ["--json", "session", "compact", id]);
    fourKeys(json.stdout, id);
    const jsonl = await cliIn(api, ["session", "compact", id, "-o", "jsonl"]);
    expect(jsonl.code).toBe(0);
    expect(jsonl.stdout.endsWith("\n")).toBe(true);
    expect(jsonl.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(fourKeys(jsonl.stdout, id).outcome).toBe("completed");
    const toon = await cliIn(api, ["session", "compact", id, "-o", "toon"]);
    expect(toon.code).toBe(0);
    const decoded = decodeToon(toon.stdout) as { session_compact: Record<string, unknown> };
    expect(Object.keys(decoded)).toEqual(["session_compact"]);
    expect(decoded.session_compact).toEqual({
      session_id: id,
      prompt_id: expect.any(String),
      command: "compact",
      outcome: "completed",
    });
  });

  it("when the compaction fails, then outcome failed with the agent's error and exit 4", async () => {
    const id = await sessionWith("/demo fail");
    const run = await cliIn(api, ["session", "compact", id]);
    expect(run.stdout.trimEnd().split("\n")[1]).toBe("Compaction failed: context too small");
    expect(run.code).toBe(4);
    const json = await cliIn(api, [
      "session",
      "compact",
      await sessionWith("/demo fail"),
      "-o",
      "json",
    ]);
    expect(JSON.parse(json.stdout).outcome).toBe("failed");
    expect(json.code).toBe(4);
  });

  it("when the agent corrects completed → failed before the turn ends, then the newest snapshot wins: failed, exit 4", async () => {
    const id = await sessionWith("/demo correct");
    const run = await cliIn(api, ["session", "compact", id, "-o", "json"]);
    const record = fourKeys(run.stdout, id);
    expect(record.outcome).toBe("failed");
    expect(run.code).toBe(4);
    const { events } = await daemonJson(
      `${daemon.sessionPath(id)}/events?type=compaction&turn_id=${record.prompt_id}`,
    );
    const statuses = events.map((event) => event.content.status);
    expect(statuses).toEqual(["in_progress", "completed", "failed"]);
  });

  it("when the compaction is cancelled mid-way, then outcome cancelled and exit 4; a second request meanwhile is refused busy (exit 3)", async () => {
    const id = await sessionWith("/demo slow 30");
    const pending = cliIn(api, ["session", "compact", id, "-o", "json"]);
    await waitUntil(() => daemon.ledger.reader.openCompactions(id).length === 1);

    const busy = await cliIn(api, ["session", "compact", id]);
    expect(busy).toEqual({
      code: 3,
      stdout: "",
      stderr: "error: session: prompt already in progress\n",
    });
    const busyJson = await cliIn(api, ["session", "compact", id, "-o", "json"]);
    expect(busyJson.code).toBe(3);
    expect(busyJson.stdout).toBe("");
    expect(JSON.parse(busyJson.stderr)).toEqual({
      error: "session: prompt already in progress",
      code: "session_busy",
    });

    await daemon.host.cancel(id);
    const run = await pending;
    expect(fourKeys(run.stdout, id).outcome).toBe("cancelled");
    expect(run.code).toBe(4);
  });

  it("when the agent advertises no compaction command, then compaction_unsupported in the daemon's words, exit 3", async () => {
    const id = await sessionWith(undefined, "nocompact");
    const run = await cliIn(api, ["session", "compact", id]);
    expect(run).toEqual({
      code: 3,
      stdout: "",
      stderr: "error: session: agent does not advertise a compaction command\n",
    });
    const json = await cliIn(api, ["session", "compact", id, "-o", "json"]);
    expect(JSON.parse(json.stderr)).toEqual({
      error: "session: agent does not advertise a compaction command",
      code: "compaction_unsupported",
    });
  });

  it("when the session is stopped, then session_not_promptable, exit 3", async () => {
    const id = await sessionWith();
    daemon.host.stopSession(id);
    await daemon.waitForSession(id, (session) => session.state === "stopped");
    const run = await cliIn(api, ["session", "compact", id, "-o", "json"]);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe("");
    expect(JSON.parse(run.stderr)).toMatchObject({ code: "session_not_promptable" });
    const human = await cliIn(api, ["session", "compact", id]);
    expect(human.stderr).toMatch(/^error: session: .+\n$/);
  });

  it("when the turn ends and the agent reported no compaction, then outcome not_reported, said in words, exit 5", async () => {
    const id = await sessionWith(undefined, "quiet");
    const run = await cliIn(api, ["session", "compact", id]);
    expect(run.stdout.trimEnd().split("\n")[1]).toBe(
      "No compaction reported: the turn ended without the agent reporting a compaction",
    );
    expect(run.code).toBe(5);
    const json = await cliIn(api, ["session", "compact", id, "-o", "json"]);
    expect(fourKeys(json.stdout, id).outcome).toBe("not_reported");
    expect(json.code).toBe(5);
  });

  it("when the session does not exist, then a one-line error and exit 1", async () => {
    const run = await cliIn(api, ["session", "compact", "ses_nope"]);
    expect(run).toEqual({ code: 1, stdout: "", stderr: "error: session ses_nope not found\n" });
  });
});
