import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CapabilityMode,
  type DemoAgentClient,
  frameSequence,
  type RawFrame,
  startDemoAgent,
  textOf,
  updateOf,
} from "../testing/demo-agent-client";
import { LEGACY_TOOL_TITLE } from "./compaction-runner";
import { FAILURE_ERROR } from "./compaction-script";

const isCompactionFrame = (frame: RawFrame) =>
  updateOf(frame)?.sessionUpdate.startsWith("compaction") === true;

describe.each<CapabilityMode>(["omitted", "null"])(
  "when the client's compaction capability is %s",
  (capability) => {
    let agent: DemoAgentClient;

    beforeAll(async () => {
      agent = await startDemoAgent({ capability });
    });

    afterAll(async () => {
      // Whatever ran in this process, not one compaction update reached the wire.
      expect(agent.raw.filter(isCompactionFrame)).toEqual([]);
      await agent.close();
    });

    const turn = (sessionId: string, text: string) => agent.turn(sessionId, text);

    it("then /compact shows as a 'Compact conversation' think tool call plus a text line", async () => {
      const sessionId = await agent.newSession();
      await turn(sessionId, "Plan the sidebar in src/features/sessions/sidebar.tsx");
      const { frames } = await turn(sessionId, "/compact");
      expect(frameSequence(frames)).toEqual([
        "tool_call:in_progress",
        "tool_call_update:completed",
        "agent_message_chunk",
        "usage_update",
        "response:end_turn",
      ]);
      const [call, done, line] = frames.map(updateOf);
      expect(call).toMatchObject({ title: LEGACY_TOOL_TITLE, kind: "think" });
      expect(done?.toolCallId).toBe(call?.toolCallId);
      expect(JSON.stringify(done?.content)).toContain("## Conversation summary");
      expect(textOf(line?.content)).toMatch(
        /^Compacted the conversation: context [\d,]+ → [\d,]+ tokens\.$/,
      );
    });

    it("then a failing compaction ends the tool call failed with the error", async () => {
      const sessionId = await agent.newSession();
      await turn(sessionId, "/demo fail");
      const { frames } = await turn(sessionId, "/compact");
      expect(frameSequence(frames)).toEqual([
        "tool_call:in_progress",
        "tool_call_update:failed",
        "agent_message_chunk",
        "response:end_turn",
      ]);
      expect(JSON.stringify(updateOf(frames[1] ?? { line: "", json: null })?.content)).toContain(
        FAILURE_ERROR,
      );
    });

    it("then a cancelled compaction ends the tool call failed and the prompt cancelled", async () => {
      const sessionId = await agent.newSession();
      await turn(sessionId, "/demo slow 30");
      const from = agent.raw.length;
      const pending = agent.prompt(sessionId, "/compact");
      await agent.waitForRaw((frame) => updateOf(frame)?.sessionUpdate === "tool_call", from);
      await agent.cancel(sessionId);
      expect((await pending).stopReason).toBe("cancelled");
      expect(frameSequence(agent.raw.slice(from))).toEqual([
        "tool_call:in_progress",
        "tool_call_update:failed",
        "response:cancelled",
      ]);
    });

    it("then bad-frame puts a tool_call_update without toolCallId on the wire instead", async () => {
      const sessionId = await agent.newSession();
      await turn(sessionId, "/demo bad-frame");
      const { frames } = await turn(sessionId, "/compact");
      expect(frameSequence(frames)).toEqual([
        "tool_call:in_progress",
        "tool_call_update:completed",
        "tool_call_update:completed",
        "agent_message_chunk",
        "usage_update",
        "response:end_turn",
      ]);
      expect(updateOf(frames[1] ?? { line: "", json: null })).not.toHaveProperty("toolCallId");
    });

    it("then every other scenario, auto-compaction and idle still send no compaction update", async () => {
      const sessionId = await agent.newSession();
      for (const scenario of [
        "paused",
        "codex",
        "correct",
        "late-chunk",
        "replace",
        "clear",
        "big",
      ]) {
        await turn(sessionId, `/demo ${scenario}`);
        await turn(sessionId, "/compact");
      }
      await turn(sessionId, "/demo fill 90");
      const auto = await turn(sessionId, "Go on");
      expect(frameSequence(auto.frames)).toContain("tool_call:in_progress");
      const from = agent.raw.length;
      await agent.prompt(sessionId, "/demo idle");
      await agent.waitForRaw(
        (frame) => updateOf(frame)?.sessionUpdate === "tool_call_update",
        from,
      );
    });
  },
);
