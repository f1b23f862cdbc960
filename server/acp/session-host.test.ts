import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DaemonEventList as EventList } from "../../src/contract/history";
import { demoAgent, startTestDaemon, type TestDaemon } from "../testing/daemon";
import { openTestSession } from "../testing/ledger-session";
import { processAlive } from "./process-group";
import { createSessionHost } from "./session-host";

const scripted = {
  name: "scripted",
  command: process.execPath,
  args: [fileURLToPath(new URL("../testing/fixtures/scripted-agent.mjs", import.meta.url))],
};
const hanging = {
  name: "hanging",
  command: process.execPath,
  args: ["-e", "setInterval(() => {}, 1000)"],
};
const loading = { ...scripted, name: "loading", args: [...scripted.args, "--load"] };
const loadingCompaction = {
  ...scripted,
  name: "loading-compaction",
  args: [...scripted.args, "--load", "--load-compaction"],
};
const hangingNew = { ...scripted, name: "hanging-new", args: [...scripted.args, "--hang-new"] };
const early = { ...scripted, name: "early", args: [...scripted.args, "--early"] };
const missing = { name: "missing", command: "/nonexistent/agent-binary", args: [] };

/** The turn a prompt answer started (CompozyOS `new_turn_id`). */
async function turnOf(response: Response): Promise<string> {
  const body = (await response.json()) as { prompt: { new_turn_id?: string } };
  return body.prompt.new_turn_id ?? "";
}

describe("agent faults", () => {
  let daemon: TestDaemon;

  beforeAll(async () => {
    daemon = await startTestDaemon({
      agents: [
        demoAgent(process.env.TMPDIR ?? "/tmp"),
        scripted,
        loading,
        loadingCompaction,
        missing,
      ],
    });
  });
  afterAll(() => daemon.stop());

  async function events(sessionId: string, query = "") {
    const response = await daemon.call(
      "GET",
      `${daemon.sessionPath(sessionId)}/events?limit=1000${query}`,
    );
    return EventList.parse(await response.json()).events;
  }

  async function create(agent: string) {
    const response = await daemon.call("POST", "/api/sessions", {
      body: { workspace: daemon.ws, agent_name: agent },
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { session: { id: string } }).session.id;
  }

  it("when the agent crashes mid-compaction, then the daemon closes it as cancelled and stops the session; another session goes on", async () => {
    const [victim, bystander] = await Promise.all([
      daemon.createActiveSession(),
      daemon.createActiveSession(),
    ]);
    const path = daemon.sessionPath(victim.id);
    await daemon.prompt(victim.id, "/demo crash");
    await daemon.waitForSession(victim.id, (s) => s.activity === undefined);
    const accepted = await daemon.call("POST", `${path}/compact`, { body: {} });
    expect(accepted.status).toBe(202);
    const { prompt_id } = (await accepted.json()) as { prompt_id: string };
    const stopped = await daemon.waitForSession(victim.id, (s) => s.state === "stopped");
    expect(stopped.activity).toBeUndefined();

    const rows = await events(victim.id);
    const compactions = rows.filter((e) => e.type === "compaction");
    expect(compactions.at(-1)?.content).toMatchObject({
      status: "cancelled",
      terminal: true,
      source: "daemon",
      error: "agent exited before the compaction finished",
    });
    const tail = rows.slice(-4).map((e) => e.type);
    expect(tail).toEqual(["compaction", "agent.exited", "prompt.completed", "session.state"]);
    expect(
      rows.find((e) => e.type === "prompt.completed" && e.turn_id === prompt_id)?.content,
    ).toMatchObject({
      stop_reason: "agent_exited",
    });
    expect(rows.at(-1)?.content).toMatchObject({
      state: "stopped",
      reason: expect.stringMatching(/exited with code/),
    });
    const item = daemon.ledger.reader
      .transcriptPage(victim.id, { limit: 1000 })
      .entries.flatMap((e) => e.message.parts)
      .find((p) => p.type === "data-compozy-compaction");
    expect(item).toMatchObject({ data: { status: "cancelled" } });

    expect(daemon.host.findSession(bystander.id)?.state).toBe("active");
    const ok = await daemon.prompt(bystander.id, "still fine?");
    expect(ok.status).toBe(200);
    await daemon.waitForSession(bystander.id, (s) => s.activity === undefined);
    expect((await events(bystander.id)).at(-1)?.type).toBe("prompt.completed");
  });

  it("when the agent command cannot be started, then the session is stopped with the reason", async () => {
    const id = await create("missing");
    await daemon.waitForSession(id, (s) => s.state === "stopped");
    const states = (await events(id, "&type=session.state")).map((e) => e.content);
    expect(states.at(-1)).toMatchObject({
      state: "stopped",
      reason: expect.stringMatching(/could not start the agent/),
    });
  });

  it("when the agent writes garbage on stdout, then each bad line is an invalid_frame row and the turn still completes", async () => {
    const id = await create("scripted");
    await daemon.waitForSession(id, (s) => s.state === "active");
    await daemon.prompt(id, "garbage");
    await daemon.waitForSession(id, (s) => s.activity === undefined);
    const rows = await events(id);
    const invalid = rows.filter((e) => e.type === "agent.invalid_frame");
    expect(invalid.map((e) => e.content.raw)).toEqual(
      expect.arrayContaining(["this is not json", '{"hello":"world"}']),
    );
    expect(invalid.length).toBe(4);
    // A frame that fails the schema keeps the line exactly as the agent wrote it.
    expect(invalid.map((e) => e.content.raw)).toContain(
      JSON.stringify({
        jsonrpc: "2.0",
        method: "session/update",
        params: {
          sessionId: "scripted-1",
          update: { sessionUpdate: "compaction_update", compactionId: 7 },
        },
      }),
    );
    const completed = rows.find((e) => e.type === "prompt.completed");
    expect(completed?.content).toMatchObject({
      stop_reason: "end_turn",
      input_tokens: 3,
      total_tokens: 5,
    });
    const message = rows.findIndex((e) => e.type === "agent.message_chunk");
    expect(message).toBeGreaterThan(rows.indexOf(invalid.at(-1) ?? rows[0]!));
    expect(message).toBeLessThan(rows.indexOf(completed ?? rows[0]!));
    expect(daemon.host.findSession(id)?.state).toBe("active");
  });

  it("when the agent sends malformed JSON-RPC, a giant line and a request for a capability it was not given, then each is contained and the turn completes", async () => {
    const id = await create("scripted");
    await daemon.waitForSession(id, (s) => s.state === "active");
    await daemon.prompt(id, "hostile");
    await daemon.waitForSession(id, (s) => s.activity === undefined);
    const rows = await events(id);
    const invalid = rows.filter((e) => e.type === "agent.invalid_frame").map((e) => e.content);
    expect(invalid.map((c) => c.error)).toEqual([
      "JSON-RPC message is neither a request nor a response",
      "JSON-RPC response to no request the daemon sent",
      "session/update without params.update",
      "not a JSON-RPC 2.0 message",
      expect.stringMatching(/^line longer than the limit/),
    ]);
    expect(String(invalid[4]?.raw).length).toBeLessThanOrEqual(4096);
    const reply = rows.find((e) => e.type === "agent.message_chunk")?.content.content as {
      text: string;
    };
    // The SDK answers fs/read_text_file with an error: the daemon advertised no fs access.
    expect(reply.text).toMatch(/^fs reply \{"code":-32601/);
    expect(rows.at(-1)).toMatchObject({
      type: "prompt.completed",
      content: { stop_reason: "end_turn" },
    });
    expect(daemon.host.findSession(id)?.state).toBe("active");
  });

  it("when a restarted agent replays during session/load, then nothing of the replay is recorded, a bad frame included", async () => {
    const id = await create("loading");
    await daemon.waitForSession(id, (s) => s.state === "active");
    await daemon.call("POST", `${daemon.sessionPath(id)}/stop`);
    await daemon.waitForSession(id, (s) => s.state === "stopped");
    const before = await events(id);
    // A prompt resumes a stopped session (CompozyOS has no start route).
    expect((await daemon.prompt(id, "hello again")).status).toBe(200);
    await daemon.waitForSession(id, (s) => s.state === "active" && s.activity === undefined);
    const added = (await events(id)).slice(before.length);
    expect(added.map((e) => [e.type, (e.content as { state?: string }).state]).slice(0, 3)).toEqual(
      [
        ["input", undefined],
        ["session.state", "starting"],
        ["session.state", "active"],
      ],
    );
    expect(added.some((e) => JSON.stringify(e.content).includes("replayed"))).toBe(false);
    expect(added.filter((e) => e.type === "agent.invalid_frame")).toEqual([]);
  });

  it("when a replay during session/load carries a compaction first seen there, then it is recorded once, under no turn", async () => {
    const id = await create("loading-compaction");
    await daemon.waitForSession(id, (s) => s.state === "active");
    for (let round = 0; round < 2; round += 1) {
      await daemon.call("POST", `${daemon.sessionPath(id)}/stop`);
      await daemon.waitForSession(id, (s) => s.state === "stopped");
      await daemon.prompt(id, `round ${round}`);
      await daemon.waitForSession(id, (s) => s.state === "active" && s.activity === undefined);
    }
    const rows = await events(id);
    const compaction = rows.filter((e) => e.type === "compaction");
    // Recorded at the first load; the identical second replay changed nothing.
    expect(compaction.map((e) => e.content)).toEqual([
      expect.objectContaining({
        compaction_id: "replayed-1",
        status: "completed",
        summary: "Found in the replay",
        terminal: true,
      }),
    ]);
    expect(compaction[0]?.turn_id).toBe("");
    expect(rows.filter((e) => e.type === "session.compaction_fired")).toHaveLength(1);
    // Message chunks of the replay are already held: never recorded again.
    expect(rows.some((e) => JSON.stringify(e.content).includes('"replayed"'))).toBe(false);
    const page = daemon.ledger.reader.transcriptPage(id, { limit: 100 });
    expect(page.entries.filter((e) => e.message.id.startsWith("compaction"))).toHaveLength(1);
  });

  it("when the agent asks for permission, then it waits for a person and the agent receives the option chosen over HTTP", async () => {
    const id = await create("scripted");
    await daemon.waitForSession(id, (s) => s.state === "active");
    await daemon.prompt(id, "permission");
    const waiting = await daemon.waitForSession(
      id,
      (s) => (s.pending_interactions ?? []).length > 0,
    );
    const pending = waiting.pending_interactions?.[0];
    expect(pending).toMatchObject({
      kind: "permission",
      title: "Delete everything",
      choices: ["Allow", "Reject"],
      decisions: ["allow-once", "reject-once"],
      status: "pending",
    });
    const approved = await daemon.call("POST", `${daemon.sessionPath(id)}/approve`, {
      body: { request_id: pending?.provider_request_id, decision: "yes" },
      headers: { "X-Compozy-Client-ID": "web-test" },
    });
    expect(approved.status).toBe(200);
    await daemon.waitForSession(id, (s) => s.activity === undefined);
    const rows = await events(id);
    expect(rows.find((e) => e.type === "permission.resolved")?.content).toMatchObject({
      tool_call_id: "call-1",
      outcome: "selected",
      option_id: "yes",
      decision: "allow-once",
      resolved_by: "web",
    });
    expect(rows.find((e) => e.type === "agent.message_chunk")?.content).toMatchObject({
      content: { text: 'outcome {"outcome":"selected","optionId":"yes"}' },
    });
  });

  it("when a session starts, then initialize and session/new carry exactly the spec's parameters", async () => {
    const id = await create("scripted");
    await daemon.waitForSession(id, (s) => s.state === "active");
    await daemon.prompt(id, "handshake");
    await daemon.waitForSession(id, (s) => s.activity === undefined);
    const chunk = (await events(id, "&type=agent.message_chunk")).at(-1);
    const text = (chunk?.content.content as { text?: string } | undefined)?.text ?? "{}";
    const received = JSON.parse(text);
    expect(received.initialize).toEqual({
      protocolVersion: 1,
      clientInfo: { name: "tideline", version: "test" },
      clientCapabilities: {
        fs: { readTextFile: false, writeTextFile: false },
        terminal: false,
        session: { compaction: {}, notices: {} },
      },
    });
    expect(received.new).toEqual({
      cwd: daemon.ledger.store.getWorkspace(daemon.ws)?.root_dir,
      mcpServers: [],
    });
  });

  it("when the agent is killed by a signal mid-turn, then agent.exited and the stopped reason name the signal", async () => {
    const id = await create("scripted");
    await daemon.waitForSession(id, (s) => s.state === "active");
    const response = await daemon.prompt(id, "signal");
    const prompt_id = await turnOf(response);
    await daemon.waitForSession(id, (s) => s.state === "stopped");
    const rows = await events(id);
    expect(rows.find((e) => e.type === "agent.exited")?.content).toMatchObject({
      code: null,
      signal: "SIGKILL",
    });
    expect(rows.find((e) => e.type === "prompt.completed")).toMatchObject({
      turn_id: prompt_id,
      content: { stop_reason: "agent_exited" },
    });
    expect(rows.at(-1)?.content).toMatchObject({
      state: "stopped",
      reason: "agent exited on signal SIGKILL",
    });
  });

  it("when an agent without a compaction command is busy, then Compact now is session_busy first; idle, compaction_unsupported", async () => {
    const id = await create("scripted");
    await daemon.waitForSession(id, (s) => s.state === "active");
    const path = daemon.sessionPath(id);
    const held = await daemon.prompt(id, "hold");
    const prompt_id = await turnOf(held);
    const busy = await daemon.call("POST", `${path}/compact`, { body: {} });
    expect(busy.status).toBe(409);
    expect(await busy.json()).toEqual({
      error: "session: prompt already in progress",
      code: "session_busy",
    });
    const cancel = await daemon.call("POST", `${path}/prompt/cancel`);
    expect(await cancel.json()).toEqual({
      session_id: id,
      outcome: "canceled",
      turn_id: prompt_id,
    });
    await daemon.waitForSession(id, (s) => s.activity === undefined);
    expect((await events(id, "&type=prompt.completed")).at(-1)).toMatchObject({
      turn_id: prompt_id,
      content: { stop_reason: "cancelled" },
    });
    const unsupported = await daemon.call("POST", `${path}/compact`, { body: {} });
    expect(unsupported.status).toBe(409);
    expect(await unsupported.json()).toEqual({
      error: "session: agent does not advertise a compaction command",
      code: "compaction_unsupported",
    });
  });

  it("when the agent exits mid-turn, then the turn ends with agent_exited and the session is stopped", async () => {
    const id = await create("scripted");
    await daemon.waitForSession(id, (s) => s.state === "active");
    const response = await daemon.prompt(id, "exit");
    const prompt_id = await turnOf(response);
    await daemon.waitForSession(id, (s) => s.state === "stopped");
    const rows = await events(id);
    expect(rows.find((e) => e.type === "agent.exited")?.content).toMatchObject({
      code: 3,
      signal: null,
    });
    expect(rows.find((e) => e.type === "prompt.completed")).toMatchObject({
      turn_id: prompt_id,
      content: { stop_reason: "agent_exited" },
    });
  });
});

describe("an agent that hangs in the handshake", () => {
  it("when the agent never answers initialize, then it is stopped with a clear reason", async () => {
    const daemon = await startTestDaemon({ agents: [hanging], initializeTimeoutMs: 300 });
    try {
      const response = await daemon.call("POST", "/api/sessions", {
        body: {},
      });
      const { session } = (await response.json()) as { session: { id: string } };
      await daemon.waitForSession(session.id, (s) => s.state === "stopped");
      const states = daemon.ledger.reader
        .events(session.id, { type: "session.state", limit: 10 })
        .events.map((e) => e.content);
      expect(states.at(-1)).toMatchObject({
        state: "stopped",
        reason: "agent did not answer initialize within 300 ms",
      });
    } finally {
      await daemon.stop();
    }
  });

  it("when the agent never answers session/new, then it is stopped with a clear reason", async () => {
    // Long enough for a node child to start and answer initialize on a loaded machine.
    const daemon = await startTestDaemon({ agents: [hangingNew], initializeTimeoutMs: 2500 });
    try {
      const response = await daemon.call("POST", "/api/sessions", {
        body: {},
      });
      const { session } = (await response.json()) as { session: { id: string } };
      await daemon.waitForSession(session.id, (s) => s.state === "stopped");
      const states = daemon.ledger.reader
        .events(session.id, { type: "session.state", limit: 10 })
        .events.map((e) => e.content);
      expect(states.at(-1)).toMatchObject({
        state: "stopped",
        reason: "agent did not answer session/new within 2500 ms",
      });
    } finally {
      await daemon.stop();
    }
  });
});

describe("a daemon restarted after dying mid-turn", () => {
  it("when a session was active with a turn and a compaction open, then both are closed and it is stopped", () => {
    const { ledger, sessionId } = openTestSession();
    const { recorder, reader } = ledger;
    recorder.recordState(sessionId, "active");
    recorder.recordPromptCompleted(sessionId, "turn-done", { stop_reason: "end_turn" });
    recorder.recordCompactionRequested(sessionId, "turn-open", {
      command: "compact",
      requested_by: "web",
    });
    recorder.recordUpdate(sessionId, "turn-open", {
      sessionUpdate: "compaction_update",
      compactionId: "c1",
      status: "in_progress",
    });
    const before = reader.maxSequence(sessionId);
    const host = createSessionHost({ ledger, agents: [], version: "test", agentCwd: "." });
    expect(host.recoverInterrupted()).toBe(1);
    const added = reader
      .events(sessionId, { after_sequence: before, limit: 100 })
      .events.map((e) => ({ type: e.type, turn_id: e.turn_id, content: e.content }));
    expect(added).toMatchObject([
      {
        type: "compaction",
        turn_id: "turn-open",
        content: { status: "cancelled", terminal: true },
      },
      { type: "prompt.completed", turn_id: "turn-open", content: { stop_reason: "agent_exited" } },
      { type: "session.state", content: { state: "stopped", reason: "daemon restarted" } },
    ]);
    expect(added).toHaveLength(3);
    // A second restart finds nothing left to close.
    expect(
      createSessionHost({ ledger, agents: [], version: "t", agentCwd: "." }).recoverInterrupted(),
    ).toBe(0);
    ledger.close();
  });
});

/** Polls until the process is gone (a zombie counts as gone); false after `timeoutMs`. */
async function gone(pid: number, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (processAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

describe("an agent whose child outlives it or holds its stdout", () => {
  let daemon: TestDaemon;
  const strays: number[] = [];

  beforeAll(async () => {
    daemon = await startTestDaemon({ agents: [scripted, early] });
  });
  afterAll(async () => {
    await daemon.stop();
    for (const pid of strays) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already gone, as it should be.
      }
    }
  });

  async function activeSession() {
    const response = await daemon.call("POST", "/api/sessions", {
      body: { agent_name: "scripted" },
    });
    const { session } = (await response.json()) as { session: { id: string } };
    await daemon.waitForSession(session.id, (s) => s.state === "active");
    return session.id;
  }

  /** Sends the prompt and waits for the chunk in which the agent names its grandchild. */
  async function startGrandchild(id: string, text: string) {
    const response = await daemon.prompt(id, text);
    expect(response.status).toBe(200);
    const prompt_id = await turnOf(response);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const chunk = daemon.ledger.reader
        .events(id, { type: "agent.message_chunk", limit: 10 })
        .events.map((e) => (e.content.content as { text?: string }).text ?? "")
        .find((t) => t.startsWith("grandchild "));
      if (chunk !== undefined) {
        const pid = Number(chunk.slice("grandchild ".length));
        strays.push(pid);
        return { pid, promptId: prompt_id };
      }
      if (Date.now() > deadline) throw new Error("the agent never named its grandchild");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it("when the agent exits mid-prompt while its grandchild holds stdout, then the turn closes as agent_exited and the session stops within a bound, and the grandchild is ended", async () => {
    const id = await activeSession();
    const { pid, promptId } = await startGrandchild(id, "orphan");
    expect(processAlive(pid)).toBe(true);
    const started = Date.now();
    const stopped = await daemon.waitForSession(id, (s) => s.state === "stopped", 5000);
    // The agent exits 50 ms after the chunk; then at most the drain (300 ms) and slack.
    expect(Date.now() - started).toBeLessThan(2000);
    expect(stopped.activity).toBeUndefined();
    const rows = daemon.ledger.reader.events(id, { limit: 1000 }).events;
    expect(rows.find((e) => e.type === "agent.exited")?.content).toMatchObject({ code: 4 });
    expect(rows.find((e) => e.type === "prompt.completed")).toMatchObject({
      turn_id: promptId,
      content: { stop_reason: "agent_exited" },
    });
    expect(rows.at(-1)?.content).toMatchObject({ state: "stopped" });
    // It ignores SIGTERM: only the SIGKILL after the grace period (500 ms here) ends it.
    expect(await gone(pid)).toBe(true);
  });

  it("when a session whose agent has a grandchild is stopped, then the session stops and the whole tree is gone", async () => {
    const id = await activeSession();
    const { pid, promptId } = await startGrandchild(id, "orphan-hold");
    const response = await daemon.call("POST", `${daemon.sessionPath(id)}/stop`);
    expect(response.status).toBe(204);
    await daemon.waitForSession(id, (s) => s.state === "stopped", 5000);
    const rows = daemon.ledger.reader.events(id, { limit: 1000 }).events;
    expect(rows.find((e) => e.type === "prompt.completed")).toMatchObject({
      turn_id: promptId,
      content: { stop_reason: "agent_exited" },
    });
    expect(rows.at(-1)?.content).toMatchObject({ state: "stopped", reason: "stopped by request" });
    expect(await gone(pid)).toBe(true);
  });

  it("when the daemon shuts down, then no process of an agent tree is left when shutdown returns", async () => {
    const own = await startTestDaemon({ agents: [scripted] });
    const response = await own.call("POST", "/api/sessions", { body: {} });
    const { session } = (await response.json()) as { session: { id: string } };
    await own.waitForSession(session.id, (s) => s.state === "active");
    await own.prompt(session.id, "orphan-hold");
    let pid: number | undefined;
    const deadline = Date.now() + 10_000;
    while (pid === undefined && Date.now() < deadline) {
      const text = own.ledger.reader
        .events(session.id, { type: "agent.message_chunk", limit: 10 })
        .events.map((e) => (e.content.content as { text?: string }).text ?? "")
        .find((t) => t.startsWith("grandchild "));
      if (text !== undefined) pid = Number(text.slice("grandchild ".length));
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (pid === undefined) throw new Error("the agent never named its grandchild");
    strays.push(pid);
    expect(processAlive(pid)).toBe(true);
    await own.stop();
    // SIGKILL was sent before stop() returned; the kernel needs only a moment to deliver it.
    expect(await gone(pid, 500)).toBe(true);
  });

  it("when the agent sends frames for a session it does not own, then each is an invalid_frame and nothing of them reaches the transcript, usage or permissions", async () => {
    const id = await activeSession();
    const usageBefore = daemon.ledger.reader.usage(id);
    const response = await daemon.prompt(id, "foreign");
    expect(response.status).toBe(200);
    await daemon.waitForSession(id, (s) => s.activity === undefined);
    const rows = daemon.ledger.reader.events(id, { limit: 1000 }).events;
    const invalid = rows.filter((e) => e.type === "agent.invalid_frame").map((e) => e.content);
    expect(invalid).toHaveLength(3);
    for (const frame of invalid) {
      expect(frame.error).toBe(
        'frame for session "someone-elses-session", not this agent\'s session "scripted-1"',
      );
      expect(JSON.parse(String(frame.raw)).params.sessionId).toBe("someone-elses-session");
    }
    expect(rows.some((e) => e.type === "permission")).toBe(false);
    expect(rows.some((e) => e.type === "usage")).toBe(false);
    expect(daemon.ledger.reader.usage(id).context).toEqual(usageBefore.context);
    const texts = daemon.ledger.reader
      .transcriptPage(id, { limit: 1000 })
      .entries.flatMap((e) => e.message.parts)
      .flatMap((p) => (p.type === "text" ? [p.text] : []));
    expect(texts.join("\n")).not.toMatch(/not yours/);
    // The agent is answered (not left waiting) with an invalid-params error.
    expect(texts.join("\n")).toMatch(/^foreign reply \{"code":-32602/m);
    expect(rows.at(-1)).toMatchObject({
      type: "prompt.completed",
      content: { stop_reason: "end_turn" },
    });
  });
});

describe("frames sent before the agent's session exists", () => {
  it("when the agent announces its new session before answering session/new, then that is kept; frames before session/new, naming no session or another one are invalid", async () => {
    const daemon = await startTestDaemon({ agents: [early] });
    try {
      const response = await daemon.call("POST", "/api/sessions", {
        body: {},
      });
      const { session } = (await response.json()) as { session: { id: string } };
      const active = await daemon.waitForSession(
        session.id,
        (s) => s.state === "active" && s.available_commands.length > 0,
      );
      expect(active.available_commands.map((c) => c.name)).toEqual(["early-bird"]);
      const rows = daemon.ledger.reader.events(session.id, { limit: 100 }).events;
      expect(
        rows.filter((e) => e.type === "agent.invalid_frame").map((e) => e.content.error),
      ).toEqual([
        'frame for session "scripted-1" before the agent\'s session was established',
        "frame without a string params.sessionId",
        'frame for session "another-new-session", not this agent\'s session "scripted-1"',
      ]);
      expect(rows.some((e) => e.type === "agent.message_chunk")).toBe(false);
    } finally {
      await daemon.stop();
    }
  });
});
