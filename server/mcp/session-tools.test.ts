// The session tools over the real MCP HTTP transport: a demo agent process calls them with
// the secret its session was given; the daemon answers from the real ledger and host.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventList } from "../../src/contract/history";
import { demoAgent, startTestDaemon, type TestDaemon } from "../testing/daemon";
import { promptAndWait, replaysIn, stopAndWait, transcript } from "../testing/session-driver";
import { COMPACT_TOOL, HISTORY_TOOL } from "./session-tools";

const agentDir = mkdtempSync(join(tmpdir(), "tideline-tools-agents-"));
let daemon: TestDaemon;
beforeAll(async () => {
  daemon = await startTestDaemon({
    withSessionTools: true,
    agents: [
      demoAgent(agentDir, "demo"),
      demoAgent(agentDir, "plain", ["--commands", "none"]),
      demoAgent(agentDir, "forgetful", ["--no-load-session"]),
    ],
    replayBudget: { maxReplayBytes: 2048, maxMessageBytes: 1024 },
  });
});
afterAll(async () => {
  await daemon.stop();
  rmSync(agentDir, { recursive: true, force: true });
});

type ToolOutcome = { status: string; output: unknown };

/** Has the session's agent call a tool; returns what the timeline's tool part holds. */
async function callTool(sessionId: string, name: string, args: object): Promise<ToolOutcome> {
  await promptAndWait(daemon, sessionId, `/demo tool ${name} ${JSON.stringify(args)}`);
  const messages = await transcript(daemon, sessionId);
  for (const message of [...messages].reverse()) {
    const part = message.parts.find((p) => "toolCallId" in p && p.title === name);
    if (part !== undefined && "toolCallId" in part) {
      // The tool part keeps the agent's rawOutput (ADR 0093): the demo agent's is {output}.
      const output = part.output as { raw_output?: { output?: string } } | undefined;
      const raw = output?.raw_output?.output ?? "";
      return { status: part.state, output: JSON.parse(raw) };
    }
  }
  throw new Error(`no ${name} tool call in the transcript`);
}

/** A session created with `body` (CompozyOS's create body plus Tideline's fields), active. */
async function createWith(body: object) {
  const response = await daemon.call("POST", "/api/sessions", { body });
  expect(response.status).toBe(201);
  const { session } = (await response.json()) as { session: { id: string } };
  return daemon.waitForSession(session.id, (s) => s.state === "active");
}

const MCP_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
};

/** Calls the history tool over MCP directly with a secret, as an agent (or its leftover) would. */
function historyCall(authorization: string, sessionId: string) {
  return fetch(daemon.sessionTools?.url ?? "", {
    method: "POST",
    headers: { ...MCP_HEADERS, Authorization: authorization },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: HISTORY_TOOL, arguments: { session_id: sessionId } },
    }),
  });
}

/** Records the secret each agent session is handed from now on. */
function captureSecrets(): Map<string, string> {
  const tools = daemon.sessionTools;
  if (tools === undefined) throw new Error("no session tools");
  const secrets = new Map<string, string>();
  const original = tools.serverFor.bind(tools);
  tools.serverFor = (sessionId, workspaceId) => {
    const entry = original(sessionId, workspaceId);
    secrets.set(sessionId, entry.headers[0]?.value ?? "");
    return entry;
  };
  return secrets;
}

async function events(sessionId: string, type: string) {
  const response = await daemon.call(
    "GET",
    `${daemon.sessionPath(sessionId)}/events?type=${type}&limit=100`,
  );
  return EventList.parse(await response.json()).events;
}

describe("tideline__session_history", () => {
  it("when an agent whose scope was widened to the workspace reads another session, then it gets its stored messages newest page first, and can page back", async () => {
    const source = await daemon.createActiveSession();
    await promptAndWait(daemon, source.id, "Plan the billing migration in src/billing.ts");
    await promptAndWait(daemon, source.id, "Which tests first?");
    const reader = await createWith({ history_scope: "workspace" });

    const page = await callTool(reader.id, HISTORY_TOOL, { session_id: source.id, limit: 2 });
    expect(page.status).toBe("output-available");
    const first = page.output as {
      session_id: string;
      messages: { sequence: number; role: string; content: string }[];
      has_older: boolean;
      next_before_sequence: number;
    };
    expect(first.session_id).toBe(source.id);
    expect(first.has_older).toBe(true);
    expect(first.messages.at(-1)?.role).toBe("assistant");

    const older = await callTool(reader.id, HISTORY_TOOL, {
      session_id: source.id,
      limit: 200,
      before_sequence: first.next_before_sequence,
    });
    const rest = (older.output as { messages: { role: string; content: string }[] }).messages;
    expect(rest[0]).toMatchObject({
      role: "user",
      content: "Plan the billing migration in src/billing.ts",
    });
  }, 60_000);

  it("when an agent of the default scope reads a session outside its lineage, then not_found; its fork's agent reads the source it came from, not the other way round", async () => {
    const source = await daemon.createActiveSession();
    await promptAndWait(daemon, source.id, "Secret plan: rename the billing tables");
    const stranger = await daemon.createActiveSession();
    const refused = await callTool(stranger.id, HISTORY_TOOL, { session_id: source.id });
    expect(refused.output).toMatchObject({ code: "not_found" });

    const response = await daemon.call("POST", `${daemon.sessionPath(source.id)}/fork`, {
      body: {},
    });
    const fork = ((await response.json()) as { session: { id: string } }).session;
    await daemon.waitForSession(fork.id, (s) => s.state === "active");
    const read = await callTool(fork.id, HISTORY_TOOL, { session_id: source.id, limit: 200 });
    expect(JSON.stringify(read.output)).toContain("Secret plan: rename the billing tables");
    const back = await callTool(source.id, HISTORY_TOOL, { session_id: fork.id });
    expect(back.output).toMatchObject({ code: "not_found" });
  }, 90_000);

  it("when a session is deleted or stopped while its agent runs, then the secret its agent holds stops working at once", async () => {
    const secrets = captureSecrets();
    const doomed = await daemon.createActiveSession();
    const stopping = await daemon.createActiveSession();
    const secret = secrets.get(doomed.id) ?? "";
    const stopSecret = secrets.get(stopping.id) ?? "";
    expect(secret).toMatch(/^Bearer /);
    expect((await historyCall(secret, doomed.id)).status).toBe(200);
    expect((await historyCall(stopSecret, stopping.id)).status).toBe(200);

    expect((await daemon.call("DELETE", daemon.sessionPath(doomed.id))).status).toBe(204);
    expect((await historyCall(secret, doomed.id)).status).toBe(401);
    expect((await historyCall(secret, stopping.id)).status).toBe(401);

    expect((await daemon.call("POST", `${daemon.sessionPath(stopping.id)}/stop`)).status).toBe(204);
    expect((await historyCall(stopSecret, stopping.id)).status).toBe(401);
  }, 60_000);

  it("when a restarted agent got a replay with omissions, then it reads what was left out with the pointer it was given", async () => {
    const session = await daemon.createActiveSession("forgetful");
    await promptAndWait(daemon, session.id, "Remember: the codename is HERON.");
    for (let turn = 2; turn <= 8; turn += 1) {
      await promptAndWait(daemon, session.id, `Step ${turn}: what now?`);
    }
    await stopAndWait(daemon, session.id);
    // The prompt that resumes the session carries the replay and calls the tool it points to.
    const read = await callTool(session.id, HISTORY_TOOL, { session_id: session.id, limit: 200 });
    const acp = daemon.ledger.store.getSession(session.id)?.acp_session_id ?? "";
    const [received] = replaysIn(agentDir, acp);
    const pointer = /with the tideline__session_history tool \(session_id: (\S+)\)/.exec(
      received?.text ?? "",
    );
    expect(pointer?.[1]).toBe(session.id);
    const contents = (read.output as { messages: { content: string }[] }).messages.map(
      (m) => m.content,
    );
    expect(contents).toContain("Step 2: what now?");
    expect(received?.text).not.toContain("Step 2: what now?");
  }, 90_000);

  it("when the session is in another workspace or does not exist, then the tool refuses with not_found", async () => {
    const other = daemon.ledger.store.ensureWorkspace(join(agentDir, "elsewhere"), "elsewhere");
    const foreign = daemon.ledger.store.createSession({ workspaceId: other.id, agentName: "demo" });
    const caller = await daemon.createActiveSession();
    for (const target of [foreign.id, "ses_nope"]) {
      const refused = await callTool(caller.id, HISTORY_TOOL, { session_id: target });
      expect(refused.output).toEqual({
        code: "not_found",
        tool_id: HISTORY_TOOL,
        message: "session not found",
      });
    }
    const compact = await callTool(caller.id, COMPACT_TOOL, { session_id: foreign.id });
    expect(compact.output).toMatchObject({ code: "not_found", tool_id: COMPACT_TOOL });
  }, 60_000);
});

describe("tideline__session_compact", () => {
  it("when an agent compacts an idle session of its workspace, then Compact now runs there, recorded as requested by the tool", async () => {
    const target = await daemon.createActiveSession();
    await promptAndWait(daemon, target.id, "Explain src/app.ts");
    const caller = await daemon.createActiveSession();
    const accepted = await callTool(caller.id, COMPACT_TOOL, { session_id: target.id });
    expect(accepted.output).toMatchObject({
      session_id: target.id,
      command: "compact",
      status: "accepted",
    });
    const promptId = (accepted.output as { prompt_id: string }).prompt_id;
    await daemon.waitForSession(target.id, (s) => s.activity === undefined);
    const [requested] = await events(target.id, "session.compaction.requested");
    expect(requested).toMatchObject({
      turn_id: promptId,
      content: { command: "compact", requested_by: "tool" },
    });
    const compactions = await events(target.id, "compaction");
    expect(compactions.at(-1)?.content).toMatchObject({ status: "completed" });
  }, 60_000);

  it("when the target is busy or cannot compact, then the tool error carries the HTTP refusal's code and message", async () => {
    const caller = await daemon.createActiveSession();
    const busy = await daemon.createActiveSession();
    await promptAndWait(daemon, busy.id, "/demo slow 30");
    await daemon.call("POST", `${daemon.sessionPath(busy.id)}/compact`, { body: {} });
    const http = await daemon.call("POST", `${daemon.sessionPath(busy.id)}/compact`, { body: {} });
    expect(http.status).toBe(409);
    const httpBody = (await http.json()) as { error: string; code: string };
    const tool = await callTool(caller.id, COMPACT_TOOL, { session_id: busy.id });
    expect(tool.status).toBe("output-error");
    expect(tool.output).toEqual({
      code: "session_busy",
      tool_id: COMPACT_TOOL,
      message: httpBody.error,
    });
    await daemon.call("POST", `${daemon.sessionPath(busy.id)}/prompt/cancel`, { body: {} });

    const plain = await daemon.createActiveSession("plain");
    const unsupported = await daemon.call("POST", `${daemon.sessionPath(plain.id)}/compact`, {
      body: {},
    });
    const unsupportedBody = (await unsupported.json()) as { error: string; code: string };
    expect(unsupportedBody.code).toBe("compaction_unsupported");
    const refused = await callTool(caller.id, COMPACT_TOOL, { session_id: plain.id });
    expect(refused.output).toEqual({
      code: "compaction_unsupported",
      tool_id: COMPACT_TOOL,
      message: unsupportedBody.error,
    });
    // Its own session is running the very turn that calls the tool.
    const self = await callTool(caller.id, COMPACT_TOOL, { session_id: caller.id });
    expect(self.output).toMatchObject({ code: "session_busy" });
  }, 90_000);
});

describe("the tool policy and the transport", () => {
  it("when a fork's tool policy leaves the session tools out, then its agent gets no MCP server and its replay no pointer", async () => {
    const source = await daemon.createActiveSession();
    for (let turn = 1; turn <= 8; turn += 1) {
      await promptAndWait(daemon, source.id, `Step ${turn}: what now?`);
    }
    const withTools = await daemon.call("GET", `${daemon.sessionPath(source.id)}/derive/preview`);
    const without = await daemon.call(
      "GET",
      `${daemon.sessionPath(source.id)}/derive/preview?session_tools=false`,
    );
    const [a, b] = [
      (await withTools.json()) as { replay_bytes: number },
      (await without.json()) as { replay_bytes: number },
    ];
    expect(a.replay_bytes).toBeGreaterThan(b.replay_bytes);

    const response = await daemon.call("POST", `${daemon.sessionPath(source.id)}/fork`, {
      body: { session_tools: false },
    });
    const fork = ((await response.json()) as { session: { id: string } }).session;
    await daemon.waitForSession(fork.id, (s) => s.state === "active");
    const owed = daemon.ledger.replays.get(fork.id)?.text ?? "";
    expect(owed).toMatch(/earlier messages? (is|are) not in the replay\.\n/);
    expect(owed).not.toContain(HISTORY_TOOL);
    await promptAndWait(daemon, fork.id, `/demo tool ${HISTORY_TOOL}`);
    const messages = await transcript(daemon, fork.id);
    const part = messages.flatMap((m) => m.parts).find((p) => "toolCallId" in p);
    expect(part && "toolCallId" in part ? part.output : undefined).toMatchObject({
      raw_output: { output: "no MCP server was given to this session" },
    });
  }, 90_000);

  it("when a request has no secret, a wrong one, a browser origin or a bad body, then it is refused before any tool runs", async () => {
    const url = daemon.sessionTools?.url ?? "";
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const headers = {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    };
    const probe = await daemon.createActiveSession();
    const entry = daemon.sessionTools?.serverFor(probe.id, daemon.ws);
    const good = entry?.headers[0]?.value ?? "";
    const cases: [Record<string, string>, string, number][] = [
      [headers, body, 401],
      [{ ...headers, Authorization: "Bearer nope" }, body, 401],
      [{ ...headers, Authorization: `Bearer ${"A".repeat(43)}` }, body, 401],
      [{ ...headers, Authorization: good, Origin: "http://evil.example" }, body, 403],
      [{ ...headers, Authorization: good }, "{not json", 400],
      [{ ...headers, Authorization: good }, "x".repeat(70_000), 413],
    ];
    for (const [sent, payload, status] of cases) {
      const response = await fetch(url, { method: "POST", headers: sent, body: payload });
      expect(response.status).toBe(status);
    }
    const other = await fetch(url.replace("/mcp", "/other"), { method: "POST", headers, body });
    expect(other.status).toBe(404);
    daemon.sessionTools?.revoke(probe.id);
    const revoked = await fetch(url, {
      method: "POST",
      headers: { ...headers, Authorization: good },
      body,
    });
    expect(revoked.status).toBe(401);
  });
});
