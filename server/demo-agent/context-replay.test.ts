import { afterAll, describe, expect, it } from "vitest";
import { buildReplay, promptWithReplay } from "../domain/bounded-replay";
import { startDemoAgent, textOf, updatesOf } from "../testing/demo-agent-client";
import { readContextReplay, replayAcknowledgement } from "./context-replay";

const conversation = [
  { role: "user" as const, content: "Migrate billing to the ledger API" },
  { role: "assistant" as const, content: "Start with the read path." },
  { role: "user" as const, content: "Then what?" },
  { role: "assistant" as const, content: "The write path, behind a flag." },
];

describe("reading a context replay", () => {
  it("when a prompt starts with the daemon's replay, then the conversation, the omissions and the request come apart", () => {
    const replay = buildReplay({
      messages: Array.from({ length: 10 }, () => conversation).flat(),
      budget: { maxReplayBytes: 1024, maxMessageBytes: 1024 },
      reason: "restart",
      sourceSessionId: "ses_1",
      historyToolOffered: true,
    });
    const read = readContextReplay(promptWithReplay(replay.text, "What is left?"));
    expect(read.request).toBe("What is left?");
    expect(read.replay).toMatchObject({
      omitted: replay.omittedCount,
      text: replay.text,
      bytes: replay.bytes,
      firstRequest: "Migrate billing to the ledger API",
    });
    expect(read.replay?.messages).toHaveLength(replay.messageCount);
    expect(replayAcknowledgement(read.replay!)).toBe(
      `*Picked up from a context replay: ${replay.messageCount} messages, ${replay.omittedCount} earlier ones omitted (${replay.bytes} bytes).*`,
    );
  });

  it("when the prompt has no replay, a broken block, or the tags without the separator, then it is all request", () => {
    for (const text of [
      "plain prompt",
      "<tideline_context_replay>\n[not json\n</tideline_context_replay>\n\nThe new message from the user:\n\nhi",
      '<tideline_context_replay>\n[{"role":"tool","content":1}]\n</tideline_context_replay>\n\nThe new message from the user:\n\nhi',
      "<tideline_context_replay>\n[]\n</tideline_context_replay> and then some",
    ]) {
      expect(readContextReplay(text)).toEqual({ request: text, replay: null });
    }
  });
});

describe("the demo agent without loadSession", () => {
  const agentPromise = startDemoAgent({ args: ["--no-load-session"] });
  afterAll(async () => (await agentPromise).close());

  it("when started with --no-load-session, then it does not advertise loadSession and refuses session/load", async () => {
    const agent = await agentPromise;
    expect(agent.initializeResponse.agentCapabilities?.loadSession).toBe(false);
    const sessionId = await agent.newSession();
    await expect(agent.loadSession(sessionId)).rejects.toThrow(/not found/i);
  });

  it("when a prompt carries a replay, then the reply says what it picked up and answers the request", async () => {
    const agent = await agentPromise;
    const sessionId = await agent.newSession();
    const replay = buildReplay({
      messages: conversation,
      budget: { maxReplayBytes: 65_536, maxMessageBytes: 16_384 },
      reason: "fork",
      sourceSessionId: "ses_1",
      historyToolOffered: false,
    });
    const { frames } = await agent.turn(sessionId, promptWithReplay(replay.text, "What is left?"));
    const reply = updatesOf(frames, "agent_message_chunk")
      .map((u) => textOf(u.content))
      .join("");
    expect(reply).toContain(`Picked up from a context replay: 4 messages (${replay.bytes} bytes).`);
    expect(reply).toContain("What is left?");
    expect(reply).not.toContain("tideline_context_replay");
  });
});
