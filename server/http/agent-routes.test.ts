// Modes, config options and the agent list over HTTP, against a real agent process
// replaying Claude's recorded session (its modes and options as the adapter announced).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Session } from "../../src/contract/session";
import { startTestDaemon, type TestDaemon } from "../testing/daemon";
import { replayAgent } from "../testing/replay-agent";

const scratch = mkdtempSync(join(tmpdir(), "tideline-agent-routes-"));
const record = join(scratch, "claude.jsonl");

describe("modes, config options and agents", () => {
  let daemon: TestDaemon;
  let session: Session;

  beforeAll(async () => {
    daemon = await startTestDaemon({
      agents: [
        {
          ...replayAgent("claude", "claude-agent-acp-0.101.0.hello-then-compact.jsonl", { record }),
          preset: "claude",
        },
        replayAgent("codex", "codex-acp-2.6.0.hello-then-compact.jsonl"),
      ],
    });
    const response = await daemon.call("POST", "/api/sessions", { body: { workspace: daemon.ws } });
    const created = ((await response.json()) as { session: Session }).session;
    session = await daemon.waitForSession(created.id, (s) => s.state === "active");
  });
  afterAll(async () => {
    await daemon.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  function received(method: string): unknown[] {
    return readFileSync(record, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { method?: string; params?: unknown })
      .filter((message) => message.method === method)
      .map((message) => message.params);
  }

  const post = (path: string, body: unknown) =>
    daemon.call("POST", `${daemon.sessionPath(session.id)}/${path}`, { body });

  it("when the agents are listed, then the configured ones come default first, presets named", async () => {
    const response = await daemon.call("GET", "/api/agents");
    expect(response.status).toBe(200);
    const digest = expect.stringMatching(/^[0-9a-f]{64}$/);
    const listed = { origin: "global", prompt: "", definition_digest: digest };
    expect(await response.json()).toEqual({
      agents: [
        { name: "claude", default: true, preset: "claude", provider: "claude", ...listed },
        { name: "codex", default: false, provider: "custom", ...listed },
      ],
    });
    // CompozyOS's New session dialog asks with its workspace; an unknown parameter is ignored.
    expect((await daemon.call("GET", "/api/agents?workspace=ws_1&x=1")).status).toBe(200);
    expect((await daemon.call("GET", "/api/agents?workspace=1&workspace=2")).status).toBe(400);
  });

  it("when a mode the agent offers is set, then the agent gets session/set_mode and the session shows it", async () => {
    const response = await post("mode", { mode_id: "plan" });
    expect(response.status).toBe(200);
    const { session: updated } = (await response.json()) as { session: Session };
    expect(updated.modes?.current_mode_id).toBe("plan");
    expect(received("session/set_mode")).toEqual([
      { sessionId: expect.any(String), modeId: "plan" },
    ]);
  });

  it("when a config value the agent offers is set, then the agent gets session/set_config_option and its answer is recorded", async () => {
    const response = await post("config", { config_id: "model", value: "opus" });
    expect(response.status).toBe(200);
    const { session: updated } = (await response.json()) as { session: Session };
    expect(updated.config_options?.find((option) => option.id === "model")?.current).toBe("opus");
    expect(received("session/set_config_option")).toEqual([
      { sessionId: expect.any(String), configId: "model", value: "opus" },
    ]);
  });

  it.each([
    ["a mode not offered", "mode", { mode_id: "yolo" }, 400, "invalid_request"],
    ["an empty mode", "mode", { mode_id: " " }, 400, "invalid_request"],
    ["an extra field", "mode", { mode_id: "plan", force: true }, 400, "invalid_request"],
    ["a numeric mode", "mode", { mode_id: 3 }, 400, "invalid_request"],
    ["an unknown option", "config", { config_id: "nope", value: "x" }, 400, "invalid_request"],
    ["a value not offered", "config", { config_id: "model", value: "gpt" }, 400, "invalid_request"],
    [
      "a boolean for a select",
      "config",
      { config_id: "model", value: true },
      400,
      "invalid_request",
    ],
    ["no value", "config", { config_id: "model" }, 400, "invalid_request"],
    ["an object value", "config", { config_id: "model", value: { a: 1 } }, 400, "invalid_request"],
  ])(
    "when the body has %s, then it is refused in the envelope",
    async (_name, path, body, status, code) => {
      const response = await post(path, body);
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ code, error: expect.any(String) });
    },
  );

  it("when the session belongs to another workspace or does not exist, then 404", async () => {
    const other = await daemon.call("POST", `/api/workspaces/ws_nope/sessions/${session.id}/mode`, {
      body: { mode_id: "plan" },
    });
    expect(other.status).toBe(404);
    const commands = await daemon.call(
      "GET",
      `/api/workspaces/${daemon.ws}/sessions/nope/commands`,
    );
    expect(commands.status).toBe(404);
  });

  it("when the session is stopped, then setting a mode is refused as not promptable", async () => {
    await daemon.call("POST", `${daemon.sessionPath(session.id)}/stop`, { body: {} });
    await daemon.waitForSession(session.id, (s) => s.state === "stopped");
    const response = await post("mode", { mode_id: "default" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "session_not_promptable" });
  });
});
