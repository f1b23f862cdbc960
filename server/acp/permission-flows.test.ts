// Approvals with real agent processes replaying the recorded Claude and Codex permission
// requests: allowed and rejected over HTTP (the agent receives that optionId), cancelled
// with the turn, closed when the agent stops or crashes or the daemon restarts, answered
// by the `--permissions` policy, and every hostile approve body refused in the envelope.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DaemonEventList, type DaemonSessionEvent } from "../../src/contract/history";
import type { Session } from "../../src/contract/session";
import { type Part, TranscriptPage } from "../../src/contract/transcript";
import { startTestDaemon, type TestDaemon } from "../testing/daemon";
import { openTestSession } from "../testing/ledger-session";
import { replayAgent } from "../testing/replay-agent";
import { createSessionHost } from "./session-host";

/** CompozyOS's prompt body: the text, a message id and an idempotency key. */
function promptBody(text: string) {
  return {
    message: text,
    message_id: `msg-${randomUUID()}`,
    idempotency_key: `idem-${randomUUID()}`,
  };
}

const CLAUDE = "claude-agent-acp-0.101.0.permission-request-manual-mode.jsonl";
const CODEX = "codex-acp-2.6.0.permission-request.jsonl";
const CLAUDE_PROMPT = "please run FAKE_TOOL_BASH";
const CODEX_PROMPT = "please run-command now";
const WEB = { "X-Compozy-Client-ID": "web-approvals-test" };

const scratch = mkdtempSync(join(tmpdir(), "tideline-approvals-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let recordings = 0;

/** A replay agent that writes what it received to its own file. */
function recorded(name: string, fixture: string, options: { crashAtPermission?: boolean } = {}) {
  recordings += 1;
  const record = join(scratch, `${name}-${recordings}.jsonl`);
  return { agent: replayAgent(name, fixture, { ...options, record }), record };
}

/** The client's answers to the agent's requests, as the agent received them. */
function answersReceived(record: string): unknown[] {
  return readFileSync(record, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { method?: string; result?: unknown })
    .filter((message) => message.method === undefined)
    .map((message) => message.result);
}

function helpers(get: () => TestDaemon) {
  return {
    async create(agent: string): Promise<Session> {
      const daemon = get();
      const response = await daemon.call("POST", "/api/sessions", {
        body: { workspace: daemon.ws, agent_name: agent },
      });
      expect(response.status).toBe(201);
      const { session } = (await response.json()) as { session: Session };
      return daemon.waitForSession(session.id, (s) => s.state === "active");
    },
    async promptUntilAsked(id: string, text: string): Promise<Session> {
      const daemon = get();
      const response = await daemon.call("POST", `${daemon.sessionPath(id)}/prompt`, {
        body: promptBody(text),
      });
      expect(response.status).toBe(200);
      return daemon.waitForSession(id, (s) => (s.pending_interactions ?? []).length > 0);
    },
    approve(id: string, body: unknown, headers: Record<string, string> = WEB) {
      const daemon = get();
      return daemon.call("POST", `${daemon.sessionPath(id)}/approve`, { body, headers });
    },
    async rows(id: string): Promise<DaemonSessionEvent[]> {
      const daemon = get();
      const response = await daemon.call("GET", `${daemon.sessionPath(id)}/events?limit=1000`);
      return DaemonEventList.parse(await response.json()).events;
    },
    async permissionPart(id: string): Promise<Part | undefined> {
      const daemon = get();
      const response = await daemon.call("GET", `${daemon.sessionPath(id)}/transcript`);
      const page = TranscriptPage.parse(await response.json());
      return page.entries
        .flatMap((entry) => entry.message.parts)
        .find((part) => part.type === "data-compozy-permission");
    },
  };
}

describe("approvals, asked of a person", () => {
  let daemon: TestDaemon;
  const claude = recorded("claude", CLAUDE);
  const codex = recorded("codex", CODEX);
  const claudeToCancel = recorded("claude-cancel", CLAUDE);
  const claudeToStop = recorded("claude-stop", CLAUDE);
  const claudeCrash = recorded("claude-crash", CLAUDE, { crashAtPermission: true });
  const hostile = recorded("claude-hostile", CLAUDE);
  const { create, promptUntilAsked, approve, rows, permissionPart } = helpers(() => daemon);

  beforeAll(async () => {
    daemon = await startTestDaemon({
      agents: [
        claude.agent,
        codex.agent,
        claudeToCancel.agent,
        claudeToStop.agent,
        claudeCrash.agent,
        hostile.agent,
      ],
    });
  });
  afterAll(() => daemon.stop());

  it("when Claude asks to run Bash, then the request is pending at its tool call and survives a reload; allowed once, the agent gets allow-once", async () => {
    const session = await create("claude");
    const asked = await promptUntilAsked(session.id, CLAUDE_PROMPT);
    const pending = asked.pending_interactions?.[0];
    expect(pending).toMatchObject({
      kind: "permission",
      title: "echo fake-bash-ran > bash-proof.txt",
      choices: ["Yes", "Yes, and allow access to ws-perm/ and echo fake-bash-ran * commands", "No"],
      decisions: ["allow-once", "allow-always", "reject-once"],
      status: "pending",
    });
    expect(asked.activity?.turn_id).toBe(pending?.turn_id);
    // A reload reads the same pending request back from the daemon.
    const reloaded = await daemon.call("GET", daemon.sessionPath(session.id));
    expect(((await reloaded.json()) as { session: Session }).session.pending_interactions).toEqual(
      asked.pending_interactions,
    );
    const part = await permissionPart(session.id);
    expect(part).toMatchObject({
      type: "data-compozy-permission",
      id: pending?.provider_request_id,
      data: {
        type: "permission",
        status: "pending",
        title: "echo fake-bash-ran > bash-proof.txt",
        tool_call_id: "toolu_fakemx4evkwq2",
        resource: "execute",
        action: "session/request_permission",
        raw: {
          tool_input: { command: "echo fake-bash-ran > bash-proof.txt" },
          options: [
            { option_id: "allow-once", kind: "allow_once", label: "Yes", decision: "allow-once" },
            expect.objectContaining({ option_id: "allow-with-updates", kind: "allow_always" }),
            { option_id: "reject", kind: "reject_once", label: "No", decision: "reject-once" },
          ],
          tool_call: { id: "toolu_fakemx4evkwq2", kind: "execute" },
        },
      },
    });

    const response = await approve(session.id, {
      request_id: pending?.provider_request_id,
      turn_id: pending?.turn_id,
      decision: "allow-once",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      outcome: "applied",
      interaction_id: pending?.provider_request_id,
      request_id: pending?.provider_request_id,
      decision: "allow-once",
      resolved_decision: "allow-once",
      option_id: "allow-once",
    });
    const done = await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    expect(done.pending_interactions).toEqual([]);
    expect(answersReceived(claude.record)).toContainEqual({
      outcome: { outcome: "selected", optionId: "allow-once" },
    });
    expect(await permissionPart(session.id)).toMatchObject({
      data: {
        status: "resolved",
        decision: "allow-once",
        option_id: "allow-once",
        option_label: "Yes",
        resolved_by: "web",
      },
    });
    // The permission part sits in the tool call's own message, after the tool part.
    const transcript = await daemon.call("GET", `${daemon.sessionPath(session.id)}/transcript`);
    const entry = TranscriptPage.parse(await transcript.json()).entries.find(
      (candidate) => candidate.message.id === "tool-toolu_fakemx4evkwq2",
    );
    expect(entry?.message.parts.map((p) => p.type)).toEqual([
      "tool-execute",
      "data-compozy-permission",
    ]);
  });

  it("when Codex asks to run a command and the person rejects it, then the agent gets Codex's reject option", async () => {
    const session = await create("codex");
    const asked = await promptUntilAsked(session.id, CODEX_PROMPT);
    const requestId = asked.pending_interactions?.[0]?.provider_request_id;
    const response = await approve(
      session.id,
      { request_id: requestId, decision: "reject-once" },
      { "User-Agent": "tideline-cli/1.0" },
    );
    expect(response.status, await response.clone().text()).toBe(200);
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    expect(answersReceived(codex.record)).toContainEqual({
      outcome: { outcome: "selected", optionId: "cancel" },
    });
    const resolved = (await rows(session.id)).find((row) => row.type === "permission.resolved");
    expect(resolved?.content).toMatchObject({
      option_id: "cancel",
      option_name: "No, and tell Codex what to do differently",
      decision: "reject-once",
      resolved_by: "cli",
      status: "resolved",
    });
    // Codex's command output arrived in _meta.terminal_output_delta: it is in the tool part.
    const transcript = await daemon.call("GET", `${daemon.sessionPath(session.id)}/transcript`);
    const tool = TranscriptPage.parse(await transcript.json())
      .entries.flatMap((e) => e.message.parts)
      .find((part) => part.type === "tool-execute");
    expect(tool).toMatchObject({
      output: {
        content: [{ type: "terminal", terminalId: "call_22" }],
        terminals: { call_22: { output: "probe-done\n", truncated: false, exit_code: 0 } },
      },
    });
  });

  it("when the turn is cancelled while the request waits, then the agent gets `cancelled` and the part says so", async () => {
    const session = await create("claude-cancel");
    await promptUntilAsked(session.id, CLAUDE_PROMPT);
    const cancel = await daemon.call("POST", `${daemon.sessionPath(session.id)}/prompt/cancel`, {
      body: {},
    });
    expect(cancel.status).toBe(200);
    const done = await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    expect(done.pending_interactions).toEqual([]);
    expect(answersReceived(claudeToCancel.record)).toContainEqual({
      outcome: { outcome: "cancelled" },
    });
    expect(await permissionPart(session.id)).toMatchObject({
      data: { status: "canceled", resolved_by: "daemon", reason: "turn cancelled" },
    });
    const completed = (await rows(session.id)).find((row) => row.type === "prompt.completed");
    expect(completed?.content).toMatchObject({ stop_reason: "cancelled" });
  });

  it("when the agent is stopped while the request waits, then the request is closed as orphaned", async () => {
    const session = await create("claude-stop");
    await promptUntilAsked(session.id, CLAUDE_PROMPT);
    await daemon.call("POST", `${daemon.sessionPath(session.id)}/stop`, { body: {} });
    const stopped = await daemon.waitForSession(session.id, (s) => s.state === "stopped");
    expect(stopped.pending_interactions).toEqual([]);
    expect(await permissionPart(session.id)).toMatchObject({
      data: { status: "orphaned", resolved_by: "daemon", reason: "agent stopped by request" },
    });
  });

  it("when the agent crashes while the request waits, then the request is closed as orphaned and an approval is refused", async () => {
    const session = await create("claude-crash");
    const asked = await promptUntilAsked(session.id, CLAUDE_PROMPT);
    const requestId = asked.pending_interactions?.[0]?.provider_request_id;
    const stopped = await daemon.waitForSession(session.id, (s) => s.state === "stopped");
    expect(stopped.pending_interactions).toEqual([]);
    expect(await permissionPart(session.id)).toMatchObject({
      data: { status: "orphaned", reason: "agent exited" },
    });
    const late = await approve(session.id, { request_id: requestId, decision: "allow-once" });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({
      code: "permission_resolved",
      error: expect.stringContaining("orphaned by daemon"),
    });
  });

  it("when approve bodies are hostile, then each is refused in the contract's envelope and the request stays pending", async () => {
    const session = await create("claude-hostile");
    const asked = await promptUntilAsked(session.id, CLAUDE_PROMPT);
    const pending = asked.pending_interactions?.[0];
    const requestId = pending?.provider_request_id ?? "";
    const path = `${daemon.sessionPath(session.id)}/approve`;
    const cases: [string, { body?: unknown; rawBody?: string }, number, string][] = [
      ["bad JSON", { rawBody: "{request_id:" }, 400, "invalid_request"],
      ["an array", { body: [] }, 400, "invalid_request"],
      ["no decision", { body: { request_id: requestId } }, 400, "invalid_request"],
      [
        "an empty decision",
        { body: { request_id: requestId, decision: "  " } },
        400,
        "invalid_request",
      ],
      [
        "a numeric decision",
        { body: { request_id: requestId, decision: 1 } },
        400,
        "invalid_request",
      ],
      ["neither id", { body: { decision: "allow-once" } }, 400, "invalid_request"],
      [
        "an unknown field",
        { body: { request_id: requestId, decision: "allow-once", option: "x" } },
        400,
        "invalid_request",
      ],
      [
        "a huge decision",
        { body: { request_id: requestId, decision: "a".repeat(10_000) } },
        400,
        "invalid_request",
      ],
      [
        "an option not offered",
        { body: { request_id: requestId, decision: "reject-always" } },
        400,
        "invalid_request",
      ],
      [
        "the wrong turn",
        { body: { request_id: requestId, turn_id: "other-turn", decision: "allow-once" } },
        400,
        "invalid_request",
      ],
      [
        "an unknown request id",
        { body: { request_id: "perm_nope", decision: "allow-once" } },
        404,
        "not_found",
      ],
      [
        "a turn with nothing pending",
        { body: { turn_id: "other-turn", decision: "allow-once" } },
        404,
        "not_found",
      ],
    ];
    for (const [name, request, status, code] of cases) {
      const response = await daemon.call("POST", path, request);
      expect(response.status, name).toBe(status);
      const envelope = (await response.json()) as { error: string; code: string };
      expect(envelope.code, name).toBe(code);
      expect(envelope.error.length, name).toBeGreaterThan(0);
    }
    const notOffered = await daemon.call("POST", path, {
      body: { request_id: requestId, decision: "reject-always" },
    });
    expect(((await notOffered.json()) as { details?: Record<string, string> }).details).toEqual({
      decision: "not offered; the options are: allow-once, allow-with-updates, reject",
    });
    const elsewhere = await daemon.call(
      "POST",
      `/api/workspaces/ws_nope/sessions/${session.id}/approve`,
      { body: { request_id: requestId, decision: "allow-once" } },
    );
    expect(elsewhere.status).toBe(404);
    const still = await daemon.call("GET", daemon.sessionPath(session.id));
    expect(
      ((await still.json()) as { session: Session }).session.pending_interactions,
    ).toHaveLength(1);

    // By turn id alone, then once more: already answered.
    const byTurn = await approve(session.id, { turn_id: pending?.turn_id, decision: "reject" });
    expect(byTurn.status).toBe(200);
    const again = await approve(session.id, { request_id: requestId, decision: "allow-once" });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      code: "permission_resolved",
      error: expect.stringContaining("resolved by web: reject-once"),
    });
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    expect(answersReceived(hostile.record)).toContainEqual({
      outcome: { outcome: "selected", optionId: "reject" },
    });
  });
});

describe("approvals answered by the --permissions policy", () => {
  for (const [policy, optionId] of [
    ["reject", "reject"],
    ["allow-once", "allow-once"],
  ] as const) {
    it(`when the policy is ${policy}, then the agent gets ${optionId} at once, recorded as the policy's`, async () => {
      const agent = recorded(`claude-${policy}`, CLAUDE);
      const daemon = await startTestDaemon({ agents: [agent.agent], permissions: policy });
      try {
        const { create, rows } = helpers(() => daemon);
        const session = await create(agent.agent.name);
        await daemon.call("POST", `${daemon.sessionPath(session.id)}/prompt`, {
          body: promptBody(CLAUDE_PROMPT),
        });
        const done = await daemon.waitForSession(session.id, (s) => s.activity === undefined);
        expect(done.pending_interactions).toEqual([]);
        expect(answersReceived(agent.record)).toContainEqual({
          outcome: { outcome: "selected", optionId },
        });
        const ledger = await rows(session.id);
        expect(ledger.find((row) => row.type === "permission.requested")?.content).toMatchObject({
          policy,
        });
        expect(ledger.find((row) => row.type === "permission.resolved")?.content).toMatchObject({
          option_id: optionId,
          resolved_by: "policy",
        });
      } finally {
        await daemon.stop();
      }
    });
  }
});

describe("approvals across a daemon restart", () => {
  it("when the daemon died with a request pending, then the restart closes it as orphaned", () => {
    const t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordState(t.sessionId, "active");
    recorder.recordInput(t.sessionId, "turn-1", "go");
    recorder.recordPermissionRequested(t.sessionId, "turn-1", {
      request_id: "perm_1",
      tool_call_id: "call-1",
      title: "rm -rf build",
      tool_call: { toolCallId: "call-1", title: "rm -rf build" },
      options: [{ option_id: "yes", name: "Yes", kind: "allow_once", decision: "allow-once" }],
      policy: "ask",
    });
    const host = createSessionHost({
      ledger: t.ledger,
      agents: [],
      version: "test",
      agentCwd: process.cwd(),
      log: () => {},
    });
    expect(host.recoverInterrupted()).toBe(1);
    expect(t.ledger.reader.unresolvedPermissions(t.sessionId)).toEqual([]);
    const resolved = t.ledger.reader
      .events(t.sessionId, { type: "permission.resolved", limit: 10 })
      .events.at(0);
    expect(resolved?.content).toMatchObject({
      request_id: "perm_1",
      status: "orphaned",
      reason: "daemon restarted",
      outcome: "cancelled",
    });
    const part = t.ledger.reader
      .transcriptPage(t.sessionId, { limit: 10 })
      .entries.flatMap((entry) => entry.message.parts)
      .find((candidate) => candidate.type === "data-compozy-permission");
    expect(part).toMatchObject({ data: { status: "orphaned", title: "rm -rf build" } });
    t.ledger.close();
  });
});
