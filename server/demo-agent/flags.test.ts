import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  frameSequence,
  newStateDir,
  type RawFrame,
  startDemoAgent,
  updateOf,
  updatesOf,
} from "../testing/demo-agent-client";

const updates = updatesOf;

function commandNames(frames: readonly RawFrame[]) {
  const [update] = updates(frames, "available_commands_update");
  const commands = (update?.availableCommands ?? []) as Array<{ name: string }>;
  return commands.map((command) => command.name);
}

describe("option flags against the real process", () => {
  it("when --context-size, --commands compress and --state-dir are given, then usage, commands and the state file follow them", async () => {
    const stateDir = join(newStateDir(), "nested", "state");
    const agent = await startDemoAgent({
      args: ["--context-size", "50000", "--commands", "compress", "--state-dir", stateDir],
    });
    const sessionId = await agent.newSession();
    expect(commandNames(agent.raw)).toEqual(["compress", "help", "demo"]);

    let from = agent.raw.length;
    await agent.prompt(sessionId, "/compact");
    expect(frameSequence(agent.raw.slice(from))).not.toContain("compaction_update:in_progress");
    expect(updates(agent.raw.slice(from), "usage_update")[0]?.size).toBe(50_000);

    from = agent.raw.length;
    await agent.prompt(sessionId, "/compress keep the tests");
    expect(frameSequence(agent.raw.slice(from))).toEqual([
      "compaction_update:in_progress",
      "compaction_summary_chunk+",
      "compaction_update:completed",
      "usage_update",
      "response:end_turn",
    ]);
    await agent.close();

    const file = join(stateDir, `${sessionId}.json`);
    expect(existsSync(file)).toBe(true);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({
      sessionId,
      turnCount: 2,
      counters: { compaction: 1 },
    });
  });

  it("when --commands none and DEMO_AGENT_* settings are given, then no compaction command is offered and the threshold comes from the environment", async () => {
    const agent = await startDemoAgent({
      args: ["--commands", "none"],
      env: { DEMO_AGENT_CONTEXT_SIZE: "64000", DEMO_AGENT_AUTO_COMPACT_AT: "0.005" },
    });
    const sessionId = await agent.newSession();
    expect(commandNames(agent.raw)).toEqual(["help", "demo"]);

    const from = agent.raw.length;
    await agent.prompt(sessionId, "/compact");
    const frames = agent.raw.slice(from);
    // `/compact` is ordinary text here, but the reply passes 0.5 % of 64,000: auto-compaction.
    expect(frameSequence(frames)).toEqual([
      "agent_thought_chunk+",
      "agent_message_chunk+",
      "usage_update",
      "compaction_update:in_progress",
      "compaction_summary_chunk+",
      "compaction_update:completed",
      "usage_update",
      "response:end_turn",
    ]);
    expect(updates(frames, "usage_update").map((update) => update?.size)).toEqual([64_000, 64_000]);
    await agent.close();
  });

  it("when --speed 10 is given, then a compaction is paced (a tenth of the watchable pace)", async () => {
    const agent = await startDemoAgent({ args: ["--speed", "10"] });
    const sessionId = await agent.newSession();
    const from = agent.raw.length;
    const started = performance.now();
    await agent.prompt(sessionId, "/compact");
    // Six beats of 900 ms at speed 1: about 5.4 s for a person, 540 ms at speed 10.
    expect(performance.now() - started).toBeGreaterThanOrEqual(500);
    expect(frameSequence(agent.raw.slice(from))).toContain("compaction_update:completed");
    await agent.close();
  });

  it("when a flag is wrong, then the agent says why on stderr and exits with code 2 without writing stdout", async () => {
    const run = promisify(execFile);
    const failure = await run(process.execPath, [
      "--import",
      "tsx",
      join(import.meta.dirname, "main.ts"),
      "--commands",
      "summarize",
    ]).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2, stdout: "" });
    expect(String((failure as { stderr?: unknown }).stderr)).toContain(
      "--commands must be compact, compress or none",
    );
  });
});

describe("pacing and cancellation of a reply", () => {
  it("when a slow-paced reply is cancelled mid-stream, then its tool call ends failed and the prompt answers cancelled", async () => {
    const agent = await startDemoAgent({ args: ["--speed", "0.1"] });
    const sessionId = await agent.newSession();
    const from = agent.raw.length;
    const pending = agent.prompt(sessionId, "/demo tools");
    await agent.waitForRaw((frame) => updateOf(frame)?.sessionUpdate === "tool_call", from);
    await agent.cancel(sessionId);
    expect((await pending).stopReason).toBe("cancelled");
    expect(frameSequence(agent.raw.slice(from))).toEqual([
      "agent_thought_chunk",
      "tool_call:in_progress",
      "tool_call_update:failed",
      "response:cancelled",
    ]);
    await agent.close();
  });

  it("when the client cancels a prompt that still waits behind the turn before it, then that prompt answers cancelled at once", async () => {
    const agent = await startDemoAgent();
    const sessionId = await agent.newSession();
    const first = agent.prompt(sessionId, "/demo wait 30");
    // Queued behind the first: it has not started when the cancel comes.
    const second = agent.prompt(sessionId, "/demo wait 30");
    await agent.cancel(sessionId);
    const started = Date.now();
    expect((await first).stopReason).toBe("cancelled");
    expect((await second).stopReason).toBe("cancelled");
    expect(Date.now() - started).toBeLessThan(10_000);
    await agent.close();
  });
});
