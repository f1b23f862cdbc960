// The recorded conversations of the real Claude Code and Codex adapters, replayed through
// the real daemon by a real agent process (fixtures/replay-agent.mjs): every frame is
// modelled (no unknown update, no invalid frame, no unsupported part), and the session
// shows what the adapters said about it (title, modes, config options, model, notices).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DaemonEventList, type DaemonSessionEvent } from "../../src/contract/history";
import type { Session } from "../../src/contract/session";
import { type Part, TranscriptPage } from "../../src/contract/transcript";
import { startTestDaemon, type TestDaemon } from "../testing/daemon";
import { replayAgent } from "../testing/replay-agent";

/** CompozyOS's prompt body: the text, a message id and an idempotency key. */
function promptBody(text: string) {
  return {
    message: text,
    message_id: `msg-${randomUUID()}`,
    idempotency_key: `idem-${randomUUID()}`,
  };
}

const WEB = { "X-Compozy-Client-ID": "web-replay-test" };
const CLAUDE = "claude-agent-acp-0.101.0";
const CODEX = "codex-acp-2.6.0";

describe("recorded real-adapter traffic through the daemon", () => {
  let daemon: TestDaemon;

  beforeAll(async () => {
    daemon = await startTestDaemon({
      agents: [
        replayAgent("claude-hello", `${CLAUDE}.hello-then-compact.jsonl`),
        replayAgent("claude-no-cap", `${CLAUDE}.compact-without-capability.jsonl`),
        replayAgent("claude-cancel", `${CLAUDE}.cancel-during-compact.jsonl`),
        replayAgent("claude-tools", `${CLAUDE}.tools-auto-mode.jsonl`),
        replayAgent("codex-hello", `${CODEX}.hello-then-compact.jsonl`),
        replayAgent("codex-load", `${CODEX}.session-load.jsonl`),
      ],
    });
  });
  afterAll(() => daemon.stop());

  async function create(agent: string): Promise<Session> {
    const response = await daemon.call("POST", "/api/sessions", {
      body: { workspace: daemon.ws, agent_name: agent },
    });
    expect(response.status).toBe(201);
    const { session } = (await response.json()) as { session: Session };
    return daemon.waitForSession(session.id, (s) => s.state === "active");
  }

  async function turn(id: string, text: string): Promise<void> {
    const response = await daemon.call("POST", `${daemon.sessionPath(id)}/prompt`, {
      body: promptBody(text),
      headers: WEB,
    });
    expect(response.status, await response.clone().text()).toBe(200);
    await daemon.waitForSession(id, (s) => s.activity === undefined);
  }

  async function rows(id: string): Promise<DaemonSessionEvent[]> {
    const response = await daemon.call("GET", `${daemon.sessionPath(id)}/events?limit=1000`);
    return DaemonEventList.parse(await response.json()).events;
  }

  async function parts(id: string): Promise<Part[]> {
    const response = await daemon.call("GET", `${daemon.sessionPath(id)}/transcript?limit=1000`);
    const page = TranscriptPage.parse(await response.json());
    return page.entries.flatMap((entry) => entry.message.parts);
  }

  function assistantText(all: Part[]): string {
    return all
      .filter((part) => part.type === "text")
      .map((part) => (part.type === "text" ? part.text : ""))
      .join("\n");
  }

  /** Nothing the adapter sent was left unmodelled or rendered as unsupported. */
  async function expectAllModelled(id: string) {
    const ledger = await rows(id);
    const types = ledger.map((row) => row.type);
    expect(types).not.toContain("agent.unknown_update");
    expect(types).not.toContain("agent.invalid_frame");
    const transcript = await parts(id);
    expect(transcript.filter((part) => part.type === "unsupported")).toEqual([]);
    return { ledger, transcript };
  }

  it("when Claude's hello-then-compact plays, then the title names the session, notices stand apart, and modes, options and model are recorded", async () => {
    const session = await create("claude-hello");
    expect(session.modes).toMatchObject({ current_mode_id: "auto" });
    expect(session.modes?.available_modes.map((mode) => mode.id)).toEqual([
      "default",
      "acceptEdits",
      "plan",
      "auto",
    ]);
    expect(session.config_options?.map((option) => [option.id, option.current])).toEqual([
      ["mode", "auto"],
      ["model", "default"],
      ["effort", "default"],
      ["fast", "off"],
      ["ultracode", "off"],
    ]);
    expect(session.config_options?.[1]?.values?.[1]).toEqual({
      value: "opus",
      label: "Opus 5.5",
      description: "Opus 5.5 · Best for everyday, complex tasks · $4/$20 per Mtok",
    });
    await turn(session.id, "hello");
    const titled = await daemon.waitForSession(session.id, (s) => s.name !== undefined);
    expect(titled.name).toBe("Fake greeting session");
    expect(titled.model).toBe("claude-opus-5-5");
    await turn(session.id, "/compact");

    const { ledger, transcript } = await expectAllModelled(session.id);
    expect(ledger.find((row) => row.type === "agent.extension")?.content).toMatchObject({
      method: "_auth/status_update",
      params: { authStatus: { kind: "api_key" } },
    });
    // Recorded quietly: no transcript line, no error.
    expect(JSON.stringify(transcript)).not.toContain("_auth/status_update");
    const notice = ledger.find((row) => row.type === "notice");
    expect(notice?.content).toMatchObject({
      severity: "warning",
      source: "message_chunk",
      title: expect.stringMatching(/^Warning: We're changing auto mode/),
    });
    // The reply is the model's words alone; the notice is its own event part.
    const text = assistantText(transcript);
    expect(text).toContain("Hello! I'm a **fake** Claude, answering from a local test server.");
    expect(text).not.toContain("Warning");
    expect(
      transcript.some((part) => part.type === "data-compozy-event" && part.data.type === "notice"),
    ).toBe(true);
    // Typing /compact went through Compact now.
    expect(
      ledger.find((row) => row.type === "session.compaction.requested")?.content,
    ).toMatchObject({ command: "compact", requested_by: "web" });
    expect(ledger.filter((row) => row.type === "compaction").at(-1)?.content).toMatchObject({
      status: "completed",
    });
  });

  it("when the user renamed the session, then the agent's title does not override it; a retried typed /compact compacts once", async () => {
    const session = await create("claude-hello");
    const renamed = await daemon.call("PATCH", daemon.sessionPath(session.id), {
      body: { name: "My name" },
      headers: { "Content-Type": "application/json" },
    });
    expect(renamed.status).toBe(200);
    await turn(session.id, "hello");
    // Claude sends its title just after the prompt's answer.
    await daemon.waitForSession(
      session.id,
      () => daemon.ledger.reader.sessionSettings(session.id).title !== undefined,
    );
    expect(daemon.host.findSession(session.id)?.name).toBe("My name");
    const body = promptBody("/compact");
    const path = `${daemon.sessionPath(session.id)}/prompt`;
    const first = await daemon.call("POST", path, { body, headers: WEB });
    expect(first.status).toBe(200);
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    const again = await daemon.call("POST", path, { body, headers: WEB });
    expect(again.status).toBe(202);
    expect(((await again.json()) as { prompt: { replayed: boolean } }).prompt.replayed).toBe(true);
    const requested = (await rows(session.id)).filter(
      (row) => row.type === "session.compaction.requested",
    );
    expect(requested).toHaveLength(1);
    // The person's own line, marked typed: the timeline says "You typed /compact" (ADR 0116).
    const page = TranscriptPage.parse(
      await (
        await daemon.call("GET", `${daemon.sessionPath(session.id)}/transcript?limit=1000`)
      ).json(),
    );
    const typedLine = page.entries.find(
      (entry) => (entry.message.metadata as { typed?: unknown } | undefined)?.typed === true,
    );
    expect(typedLine?.message).toMatchObject({
      role: "user",
      metadata: { maintenance: true, typed: true, message_id: body.message_id },
      parts: [{ type: "text", text: "/compact" }],
    });
  });

  it("when the session list is read, then it carries no commands and GET …/commands has them in CompozyOS's shape", async () => {
    const session = await create("claude-hello");
    await turn(session.id, "hello");
    // Claude sends its title just after the prompt's answer.
    await daemon.waitForSession(
      session.id,
      () => daemon.ledger.reader.sessionSettings(session.id).title !== undefined,
    );
    const list = await daemon.call("GET", "/api/sessions");
    const listed = ((await list.json()) as { sessions: Session[] }).sessions.find(
      (s) => s.id === session.id,
    );
    expect(listed?.available_commands).toEqual([]);
    expect(listed?.modes).toBeUndefined();
    expect(listed?.config_options).toBeUndefined();
    expect(listed?.name).toBe("Fake greeting session");
    expect(JSON.stringify(listed).length).toBeLessThan(2000);
    const detail = await daemon.call("GET", daemon.sessionPath(session.id));
    expect(
      ((await detail.json()) as { session: Session }).session.available_commands.length,
    ).toBeGreaterThan(10);
    const commands = await daemon.call("GET", `${daemon.sessionPath(session.id)}/commands`);
    expect(commands.status).toBe(200);
    const body = (await commands.json()) as {
      commands: { id: string; canonical_token: string; lane: string }[];
      revision: string;
    };
    expect(body.commands).toContainEqual(
      expect.objectContaining({
        id: "agent:compact",
        canonical_token: "/compact",
        lane: "agent",
        available: true,
      }),
    );
    expect(body.revision).not.toBe("");
  });

  it("when Claude compacts without the capability, then its 'Compact conversation' tool call is a tool part", async () => {
    const session = await create("claude-no-cap");
    await turn(session.id, "hello");
    await turn(session.id, "/compact");
    const { transcript } = await expectAllModelled(session.id);
    const tool = transcript.find((part) => part.type === "tool-think");
    expect(tool).toMatchObject({
      title: "Compact conversation",
      state: "output-available",
      output: { raw_output: { trigger: "manual", preTokens: 11470, postTokens: 2620 } },
    });
  });

  it("when Claude's compaction is cancelled, then it is recorded cancelled and the next turn runs", async () => {
    const session = await create("claude-cancel");
    await turn(session.id, "hello");
    const compact = await daemon.call("POST", `${daemon.sessionPath(session.id)}/compact`, {
      body: {},
      headers: WEB,
    });
    expect(compact.status).toBe(202);
    const cancel = await daemon.call("POST", `${daemon.sessionPath(session.id)}/prompt/cancel`, {
      body: {},
    });
    expect(cancel.status).toBe(200);
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    await turn(session.id, "hello again");
    const { ledger } = await expectAllModelled(session.id);
    expect(ledger.filter((row) => row.type === "compaction").at(-1)?.content).toMatchObject({
      status: "cancelled",
    });
    expect(
      ledger.filter((row) => row.type === "prompt.completed").map((row) => row.content.stop_reason),
    ).toEqual(["end_turn", "cancelled", "end_turn"]);
  });

  it("when Claude runs Bash and Write in auto mode, then the Write diff and the Bash output are in the tool parts", async () => {
    const session = await create("claude-tools");
    await turn(session.id, "please run FAKE_TOOL_BASH");
    await turn(session.id, "please FAKE_TOOL_WRITE");
    const { transcript } = await expectAllModelled(session.id);
    const bash = transcript.find((part) => part.type === "tool-execute");
    expect(bash).toMatchObject({
      title: "echo fake-bash-ran > bash-proof.txt",
      input: { command: "echo fake-bash-ran > bash-proof.txt" },
      state: "output-available",
      output: { raw_output: "(Bash completed with no output)" },
    });
    const write = transcript.find((part) => part.type === "tool-edit");
    expect(write).toMatchObject({
      title: "Write /home/user/project/scratch",
      state: "output-error",
    });
    // The failed Write still shows the diff it proposed (a new file: oldText null).
    const history = await rows(session.id);
    const diffs = history
      .filter((row) => row.type === "tool_call_update")
      .flatMap((row) => (row.content.content as unknown[] | undefined) ?? [])
      .filter((block) => (block as { type?: string }).type === "diff");
    expect(diffs).toEqual([
      {
        type: "diff",
        path: "/home/user/project/scratch",
        oldText: null,
        newText: "written by the fake model\n",
      },
    ]);
    // The refused Write's part still carries the diff it proposed, beside the refusal.
    expect(write?.type === "tool-edit" && write.output).toMatchObject({
      locations: [{ path: "/home/user/project/scratch" }],
      diffs,
      content: [
        {
          type: "content",
          content: { type: "text", text: expect.stringMatching(/Auto mode could not evaluate/) },
        },
      ],
    });
  });

  it("when Codex's hello-then-compact plays, then the title names the session and its warning is a notice", async () => {
    const session = await create("codex-hello");
    await turn(session.id, "hello");
    const titled = await daemon.waitForSession(session.id, (s) => s.name === "hello");
    expect(titled.name).toBe("hello");
    await turn(session.id, "/compact");
    const { ledger, transcript } = await expectAllModelled(session.id);
    expect(ledger.filter((row) => row.type === "notice").map((row) => row.content)).toEqual([
      expect.objectContaining({
        severity: "warning",
        source: "message_chunk",
        title: expect.stringMatching(/^Warning: Model metadata for `gpt-fake` not found/),
      }),
    ]);
    expect(assistantText(transcript)).not.toContain("Warning");
    expect(assistantText(transcript)).toContain("Hello from the fake model.");
    // Status-only session_info_update frames are recorded quietly, not as events.
    expect(ledger.filter((row) => row.type === "session.info").length).toBeGreaterThan(2);
    expect(
      transcript.filter(
        (part) =>
          part.type === "data-compozy-event" && String(part.data.type).startsWith("session.info"),
      ),
    ).toEqual([]);
    expect(
      ledger.find((row) => row.type === "session.compaction.requested")?.content,
    ).toMatchObject({ requested_by: "web" });
  });

  it("when Codex loads an earlier session, then the new turn after the load is modelled", async () => {
    const session = await create("codex-load");
    const stop = await daemon.call("POST", `${daemon.sessionPath(session.id)}/stop`, { body: {} });
    expect(stop.status).toBeLessThan(300);
    await daemon.waitForSession(session.id, (s) => s.state === "stopped");
    // A prompt resumes a stopped session (CompozyOS): the agent gets session/load first.
    await turn(session.id, "hello after load");
    const { ledger, transcript } = await expectAllModelled(session.id);
    expect(assistantText(transcript)).toContain("Hello from the fake model.");
    expect(ledger.filter((row) => row.type === "notice").length).toBeGreaterThanOrEqual(1);
  });
});
