// Continue and fork over HTTP with real demo agents: the preview matches what the new
// session's agent then receives, byte for byte; continue stops the source, fork does not;
// the deferred replay of a derived session survives /compact, a stop, a daemon restart and
// a session/load. Hostile input is refused before anything is created.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { DerivePreview } from "../../src/contract/derive";
import { SessionEnvelope } from "../../src/contract/session";
import { buildReplay, replayMessagesOf } from "../domain/bounded-replay";
import { demoAgent, startTestDaemon, type TestDaemon } from "../testing/daemon";
import {
  compactAndWait,
  promptAndWait,
  promptsReceived,
  replaysIn,
  stopAndWait,
  transcript,
} from "../testing/session-driver";

const agentDir = mkdtempSync(join(tmpdir(), "tideline-derive-agents-"));
afterAll(() => rmSync(agentDir, { recursive: true, force: true }));
const agents = () => [
  demoAgent(agentDir, "demo"),
  demoAgent(agentDir, "other", ["--no-load-session", "--commands", "compress"]),
];
const daemons: TestDaemon[] = [];
afterEach(async () => {
  for (const daemon of daemons.splice(0)) await daemon.stop();
});

async function daemonWith(options: Parameters<typeof startTestDaemon>[0] = {}) {
  const daemon = await startTestDaemon({ agents: agents(), ...options });
  daemons.push(daemon);
  return daemon;
}

async function preview(daemon: TestDaemon, id: string, query = "") {
  const response = await daemon.call("GET", `${daemon.sessionPath(id)}/derive/preview${query}`);
  expect(response.status).toBe(200);
  return DerivePreview.parse(await response.json());
}

async function derive(daemon: TestDaemon, id: string, kind: "continue" | "fork", body: object) {
  const response = await daemon.call("POST", `${daemon.sessionPath(id)}/${kind}`, { body });
  expect(response.status, await response.clone().text()).toBe(201);
  const { session } = SessionEnvelope.parse(await response.json());
  return daemon.waitForSession(
    session.id,
    (s) => s.state === "active" && s.available_commands.length > 0,
  );
}

function acpOf(daemon: TestDaemon, id: string): string {
  return daemon.ledger.store.getSession(id)?.acp_session_id ?? "";
}

async function sourceSession(daemon: TestDaemon, turns = 2) {
  const source = await daemon.createActiveSession("demo");
  await promptAndWait(daemon, source.id, "Plan the billing migration in src/billing.ts");
  for (let turn = 2; turn <= turns; turn += 1) {
    await promptAndWait(daemon, source.id, `Step ${turn}: what now?`);
  }
  return source;
}

describe("continue and fork", () => {
  it("when a session is continued into another agent, then its first turn carries exactly what the preview reported, the source is stopped, and both ledgers keep their own words", async () => {
    const daemon = await daemonWith();
    const source = await sourceSession(daemon);
    const shown = await preview(daemon, source.id);
    const stored = await transcript(daemon, source.id);
    const expected = buildReplay({
      messages: replayMessagesOf(stored),
      budget: { maxReplayBytes: 131_072, maxMessageBytes: 16_384 },
      reason: "continue",
      sourceSessionId: source.id,
      sourceAgent: "demo",
      historyToolOffered: false,
    });
    expect(shown).toEqual({
      message_count: expected.messageCount,
      replay_bytes: expected.bytes,
      truncated: false,
      omitted_count: 0,
    });

    const next = await derive(daemon, source.id, "continue", { agent_name: "other", name: "next" });
    expect(next).toMatchObject({ agent_name: "other", name: "next", workspace_id: daemon.ws });
    await daemon.waitForSession(source.id, (s) => s.state === "stopped");
    await promptAndWait(daemon, next.id, "Carry on.");
    await promptAndWait(daemon, next.id, "And then?");

    const [received, ...more] = replaysIn(agentDir, acpOf(daemon, next.id));
    expect(more).toEqual([]);
    expect(received?.text).toBe(expected.text);
    expect(Buffer.byteLength(received?.text ?? "")).toBe(shown.replay_bytes);
    expect(received?.messageCount).toBe(shown.message_count);
    expect(received?.text).toContain(
      `This session carries on the conversation of Tideline session ${source.id} (agent "demo")`,
    );
    // The source keeps its whole conversation (its stop only adds state lines after it).
    expect((await transcript(daemon, source.id)).slice(0, stored.length)).toEqual(stored);
    const firstInput = (await transcript(daemon, next.id)).find((m) => m.role === "user");
    expect(firstInput?.parts[0]).toMatchObject({ type: "text", text: "Carry on." });
    const logged = daemon.logs().find((line) => line.includes(`"session_id":"${next.id}"`));
    expect(JSON.parse(logged?.slice(logged.indexOf(" ") + 1) ?? "{}")).toMatchObject({
      reason: "continue",
      message_count: shown.message_count,
      bytes: shown.replay_bytes,
    });
  }, 60_000);

  it("when a session is forked under a budget that omits messages, then the source keeps running and the fork gets the pinned, bounded replay the preview counted", async () => {
    const daemon = await daemonWith({
      replayBudget: { maxReplayBytes: 2048, maxMessageBytes: 1024 },
    });
    const source = await sourceSession(daemon, 8);
    const shown = await preview(daemon, source.id);
    expect(shown.truncated).toBe(true);
    expect(shown.omitted_count).toBeGreaterThan(0);

    const fork = await derive(daemon, source.id, "fork", {});
    expect(fork.agent_name).toBe("demo");
    await promptAndWait(daemon, fork.id, "Try another way.");
    const [received] = replaysIn(agentDir, acpOf(daemon, fork.id));
    expect(received).toMatchObject({
      bytes: shown.replay_bytes,
      messageCount: shown.message_count,
      omitted: shown.omitted_count,
    });
    expect(received?.text).toContain(
      '{"role":"user","content":"Plan the billing migration in src/billing.ts"}',
    );
    // The source goes on, untouched.
    expect(daemon.host.getSession(source.id).state).toBe("active");
    await promptAndWait(daemon, source.id, "Still here?");
    expect(replaysIn(agentDir, acpOf(daemon, source.id))).toEqual([]);
  }, 90_000);
});

describe("the deferred replay of a derived session", () => {
  it("when a fork is compacted, stopped and reopened with session/load, then the stored replay arrives exactly once, as previewed", async () => {
    const daemon = await daemonWith();
    const source = await sourceSession(daemon);
    const shown = await preview(daemon, source.id);
    const fork = await derive(daemon, source.id, "fork", {});
    const acp = acpOf(daemon, fork.id);
    await compactAndWait(daemon, fork.id);
    await stopAndWait(daemon, fork.id);
    await promptAndWait(daemon, fork.id, "Now go on.");
    expect(acpOf(daemon, fork.id)).toBe(acp); // reopened with session/load
    await promptAndWait(daemon, fork.id, "Next.");
    expect(promptsReceived(agentDir, acp)).toEqual(["/compact", "Now go on.", "Next."]);
    const received = replaysIn(agentDir, acp);
    expect(received.map((r) => r.bytes)).toEqual([shown.replay_bytes]);
  }, 60_000);

  it("when the daemon restarts between the fork's /compact and its first prompt, then session/load restores the stored replay and it arrives exactly once", async () => {
    const first = await daemonWith();
    const source = await sourceSession(first);
    const shown = await preview(first, source.id);
    const fork = await derive(first, source.id, "fork", {});
    const acp = acpOf(first, fork.id);
    await compactAndWait(first, fork.id);
    await first.close();
    daemons.splice(daemons.indexOf(first), 1);

    const second = await daemonWith({ dir: first.dir });
    await promptAndWait(second, fork.id, "Where were we?");
    expect(acpOf(second, fork.id)).toBe(acp); // reopened with session/load
    await promptAndWait(second, fork.id, "Next.");
    expect(replaysIn(agentDir, acp).map((r) => r.bytes)).toEqual([shown.replay_bytes]);
    expect(second.ledger.replays.get(fork.id)).toBeUndefined();
  }, 60_000);
});

describe("hostile input", () => {
  it("when the request is malformed, names no such session or agent, or the source is busy, then it is refused and no session is created", async () => {
    const daemon = await daemonWith();
    const source = await sourceSession(daemon, 1);
    const count = () => daemon.ledger.store.listSessions({}).length;
    const before = count();
    const path = daemon.sessionPath(source.id);
    const cases: [string, string, { body?: unknown; rawBody?: string }, number, string][] = [
      ["POST", `${path}/fork`, { body: { agent: "demo" } }, 400, "invalid_request"],
      ["POST", `${path}/fork`, { body: { agent_name: "nope" } }, 400, "invalid_request"],
      ["POST", `${path}/fork`, { body: { agent_name: "" } }, 400, "invalid_request"],
      ["POST", `${path}/fork`, { body: { session_tools: "yes" } }, 400, "invalid_request"],
      ["POST", `${path}/continue`, { rawBody: "{not json" }, 400, "invalid_request"],
      ["POST", `${path}/continue`, { body: [] }, 400, "invalid_request"],
      ["POST", `${daemon.sessionPath("ses_nope")}/fork`, { body: {} }, 404, "not_found"],
      [
        "POST",
        `/api/workspaces/ws_nope/sessions/${source.id}/fork`,
        { body: {} },
        404,
        "not_found",
      ],
      ["GET", `${path}/derive/preview?session_tools=maybe`, {}, 400, "invalid_request"],
      ["GET", `${path}/derive/preview?limit=1`, {}, 400, "invalid_request"],
      ["GET", `${daemon.sessionPath("ses_nope")}/derive/preview`, {}, 404, "not_found"],
    ];
    for (const [method, url, options, status, code] of cases) {
      const response = await daemon.call(method, url, options);
      expect({ url, status: response.status }).toEqual({ url, status });
      expect(((await response.json()) as { code: string }).code).toBe(code);
    }
    expect(count()).toBe(before);

    // A turn running on the source: continue would take its conversation mid-turn.
    await promptAndWait(daemon, source.id, "/demo slow 30");
    await daemon.call("POST", `${path}/compact`, { body: {} });
    const busy = await daemon.call("POST", `${path}/continue`, { body: {} });
    expect(busy.status).toBe(409);
    expect(await busy.json()).toMatchObject({ code: "session_busy" });
    expect(count()).toBe(before);
    await daemon.call("POST", `${path}/prompt/cancel`, { body: {} });
  }, 60_000);
});
