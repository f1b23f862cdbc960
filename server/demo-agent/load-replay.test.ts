import { describe, expect, it, vi } from "vitest";
import {
  frameSequence,
  newStateDir,
  type RawFrame,
  startDemoAgent,
  textOf,
  updateOf,
} from "../testing/demo-agent-client";
import { LEGACY_TOOL_TITLE } from "./compaction-runner";
import { FAILURE_ERROR } from "./compaction-script";
import { EXITED_MID_COMPACTION } from "./replay";

function compactionFrames(frames: readonly RawFrame[]) {
  return frames.map(updateOf).filter((update) => update?.sessionUpdate === "compaction_update");
}

/** Records a conversation with a completed and a failed compaction, then stops the agent. */
async function recordConversation(stateDir: string) {
  const first = await startDemoAgent({ capability: "advertised", stateDir });
  const sessionId = await first.newSession();
  await first.prompt(sessionId, "Explain src/app.ts");
  await first.prompt(sessionId, "/compact");
  await first.prompt(sessionId, "/demo fail");
  await first.prompt(sessionId, "/compact");
  await first.prompt(sessionId, "What next?");
  const lastUsage = first.raw.map(updateOf).findLast((u) => u?.sessionUpdate === "usage_update");
  await first.close();
  return { sessionId, lastUsed: lastUsage?.used };
}

describe("session/load", () => {
  it("when a session is loaded by a new process, then the conversation replays before the response, past compactions terminal-first", async () => {
    const stateDir = newStateDir();
    const { sessionId, lastUsed } = await recordConversation(stateDir);

    const second = await startDemoAgent({ capability: "advertised", stateDir });
    const from = second.raw.length;
    await second.loadSession(sessionId);
    await second.waitForRaw((frame) => updateOf(frame)?.sessionUpdate === "usage_update", from);
    const frames = second.raw.slice(from);

    expect(frameSequence(frames)).toEqual([
      "user_message_chunk",
      "agent_thought_chunk",
      "tool_call:completed",
      "agent_message_chunk",
      "user_message_chunk",
      "compaction_update:completed",
      "user_message_chunk",
      "agent_message_chunk",
      "user_message_chunk",
      "compaction_update:failed",
      "user_message_chunk",
      "agent_thought_chunk",
      "tool_call:completed",
      "agent_message_chunk",
      "response",
      "available_commands_update",
      "usage_update",
    ]);
    expect(textOf(updateOf(frames[0] ?? { line: "", json: null })?.content)).toBe(
      "Explain src/app.ts",
    );
    const [completed, failed] = compactionFrames(frames);
    expect(completed).toMatchObject({ compactionId: "cmp-1", status: "completed" });
    expect(textOf(completed?.summary)).toContain("**Goal:** Explain src/app.ts");
    expect(failed).toMatchObject({ compactionId: "cmp-2", status: "failed", error: FAILURE_ERROR });
    expect(updateOf(frames.at(-1) ?? { line: "", json: null })?.used).toBe(lastUsed);
    // The SDK client accepted every replayed frame (all but the response are updates).
    await vi.waitFor(() =>
      expect(second.sdkUpdates.filter((n) => n.sessionId === sessionId)).toHaveLength(
        frames.length - 1,
      ),
    );

    const next = second.raw.length;
    await second.prompt(sessionId, "/compact");
    expect(compactionFrames(second.raw.slice(next))[0]?.compactionId).toBe("cmp-3");
    await second.close();
  });

  it("when a client without the capability loads it, then past compactions replay as finished tool calls", async () => {
    const stateDir = newStateDir();
    const { sessionId } = await recordConversation(stateDir);

    for (const capability of ["omitted", "null"] as const) {
      const legacy = await startDemoAgent({ capability, stateDir });
      const from = legacy.raw.length;
      await legacy.loadSession(sessionId);
      const frames = legacy.raw.slice(from);
      expect(compactionFrames(frames)).toEqual([]);
      const compactions = frames
        .map(updateOf)
        .filter(
          (update) => update?.sessionUpdate === "tool_call" && update.title === LEGACY_TOOL_TITLE,
        );
      expect(compactions.map((update) => [update?.kind, update?.status])).toEqual([
        ["think", "completed"],
        ["think", "failed"],
      ]);
      await legacy.close();
    }
  });

  it("when a crash cut a compaction short, then the load replays it cancelled and ids go on", async () => {
    const stateDir = newStateDir();
    const crashing = await startDemoAgent({ capability: "advertised", stateDir });
    const sessionId = await crashing.newSession();
    await crashing.prompt(sessionId, "/demo crash");
    void crashing.connection.agent
      .request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/compact" }] })
      .catch(() => undefined);
    await crashing.exited;
    await crashing.close();

    const second = await startDemoAgent({ capability: "advertised", stateDir });
    const from = second.raw.length;
    await second.loadSession(sessionId);
    expect(compactionFrames(second.raw.slice(from))).toEqual([
      {
        sessionUpdate: "compaction_update",
        compactionId: "cmp-1",
        status: "cancelled",
        error: EXITED_MID_COMPACTION,
      },
    ]);
    const next = second.raw.length;
    await second.prompt(sessionId, "/compact");
    expect(compactionFrames(second.raw.slice(next))[0]?.compactionId).toBe("cmp-2");
    await second.close();
  });

  it("when the session is unknown, then session/load fails with resource not found", async () => {
    const agent = await startDemoAgent();
    await expect(agent.loadSession("demo-404")).rejects.toMatchObject({ code: -32002 });
    await agent.close();
  });
});
