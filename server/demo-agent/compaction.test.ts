import { describe, expect, it } from "vitest";
import {
  frameSequence,
  type RawFrame,
  sharedDemoAgent,
  textOf,
  updateOf,
  updatesOf,
} from "../testing/demo-agent-client";

const agent = sharedDemoAgent({ capability: "advertised" });

const turn = (sessionId: string, text: string) => agent.turn(sessionId, text);

const updates = updatesOf;

describe("a prompt turn", () => {
  it("when a client prompts, then the Markdown reply streams under one messageId, then usage, then the response with token counters", async () => {
    const sessionId = await agent.newSession();
    const { response, frames } = await turn(sessionId, "Please explain src/contract/usage.ts?");

    expect(frameSequence(frames)).toEqual([
      "agent_thought_chunk+",
      "tool_call:in_progress",
      "tool_call_update:completed",
      "agent_message_chunk+",
      "usage_update",
      "response:end_turn",
    ]);
    const messageIds = new Set(updates(frames, "agent_message_chunk").map((u) => u?.messageId));
    expect(messageIds.size).toBe(1);
    const [usage] = updates(frames, "usage_update");
    expect(usage).toMatchObject({ size: 200_000, cost: { currency: "USD" } });
    expect(usage?.used).toBeGreaterThan(600);
    expect(response).toMatchObject({
      stopReason: "end_turn",
      usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number) },
    });
  });

  it("when turns follow each other, then used grows with what was said", async () => {
    const sessionId = await agent.newSession();
    const first = await turn(sessionId, "Hello");
    const second = await turn(sessionId, "Tell me more about the meter, in detail please");
    const used = (frames: RawFrame[]) => Number(updates(frames, "usage_update").at(-1)?.used);
    expect(used(second.frames)).toBeGreaterThan(used(first.frames) + 600);
  });
});

describe("/compact with the compaction capability", () => {
  it("when /compact runs, then in_progress, two or more chunks, completed with the summary, a lower usage_update, then the response", async () => {
    const sessionId = await agent.newSession();
    await turn(sessionId, "Build the context meter in src/features/context/meter.tsx");
    const before = await turn(sessionId, "Should the ratio round down?");
    const usedBefore = Number(updates(before.frames, "usage_update").at(-1)?.used);

    const { frames } = await turn(sessionId, "/compact");

    expect(frameSequence(frames)).toEqual([
      "compaction_update:in_progress",
      "compaction_summary_chunk+",
      "compaction_update:completed",
      "usage_update",
      "response:end_turn",
    ]);
    const chunks = updates(frames, "compaction_summary_chunk");
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    const completed = updates(frames, "compaction_update").at(-1);
    const summary = textOf(completed?.summary);
    expect(chunks.map((chunk) => textOf(chunk?.content)).join("")).toBe(summary);
    expect(summary).toContain(
      "**Goal:** Build the context meter in src/features/context/meter.tsx",
    );
    expect(summary).toContain("### Decisions");
    expect(summary).toContain("`src/features/context/meter.tsx`");
    expect(summary).toContain("### Open questions\n- Should the ratio round down?");
    const usedAfter = Number(updates(frames, "usage_update")[0]?.used);
    expect(usedAfter / usedBefore).toBeGreaterThanOrEqual(0.15);
    expect(usedAfter / usedBefore).toBeLessThanOrEqual(0.25);
  });

  it("when /compact runs, then its own usage_update already carries its cost, so the next turn's report adds only that turn's", async () => {
    const sessionId = await agent.newSession();
    const cost = (frames: RawFrame[]) =>
      Number(
        (updates(frames, "usage_update").at(-1)?.cost as { amount?: number } | undefined)?.amount,
      );
    const first = await turn(
      sessionId,
      "Build the context meter in src/features/context/meter.tsx",
    );
    const compact = await turn(sessionId, "/compact");
    const next = await turn(sessionId, "Wire the meter into the rail");
    // The compaction read the whole context (140 K → input tokens): it is not free.
    expect(cost(compact.frames)).toBeGreaterThan(cost(first.frames));
    const usage = compact.response.usage as { inputTokens: number; outputTokens: number };
    const ownCost = (usage.inputTokens * 3 + usage.outputTokens * 15) / 1_000_000;
    expect(cost(compact.frames) - cost(first.frames)).toBeCloseTo(ownCost, 3);
    const nextUsage = next.response.usage as {
      inputTokens: number;
      outputTokens: number;
      thoughtTokens: number;
    };
    const nextCost =
      (nextUsage.inputTokens * 3 + (nextUsage.outputTokens + nextUsage.thoughtTokens) * 15) /
      1_000_000;
    expect(cost(next.frames) - cost(compact.frames)).toBeCloseTo(nextCost, 3);
  });

  it("when the agent compacts on its own inside a turn, then the report after it includes the summary's cost", async () => {
    const sessionId = await agent.newSession();
    await turn(sessionId, "/demo fill 85");
    const { frames } = await turn(sessionId, "Go on");
    const reports = updates(frames, "usage_update");
    expect(reports).toHaveLength(2);
    const [beforeCompaction, afterCompaction] = reports.map((report) =>
      Number((report?.cost as { amount?: number } | undefined)?.amount),
    );
    expect(afterCompaction).toBeGreaterThan(beforeCompaction as number);
  });

  it("when /compact has a focus, then the summary names it", async () => {
    const sessionId = await agent.newSession();
    await turn(sessionId, "Start the ledger");
    const { frames } = await turn(sessionId, "/compact the ledger schema");
    const completed = updates(frames, "compaction_update").at(-1);
    expect(JSON.stringify(completed?.summary)).toContain("**Focus:** the ledger schema");
  });

  it("when a turn compacts, then the terminal compaction update is on the wire before the prompt response", async () => {
    const sessionId = await agent.newSession();
    const { frames } = await turn(sessionId, "/compact");
    const sequence = frameSequence(frames);
    expect(sequence.indexOf("compaction_update:completed")).toBeLessThan(
      sequence.indexOf("response:end_turn"),
    );
    expect(sequence.at(-1)).toBe("response:end_turn");
  });

  it("when a session compacts again and again, then every compactionId is new", async () => {
    const sessionId = await agent.newSession();
    const ids: unknown[] = [];
    for (let round = 0; round < 3; round += 1) {
      await turn(sessionId, `Round ${round}`);
      const { frames } = await turn(sessionId, "/compact");
      ids.push(...new Set(updates(frames, "compaction_update").map((u) => u?.compactionId)));
    }
    // Qualified by the session unless it is the state dir's first (conversation-state.ts).
    const prefix = sessionId === "demo-1" ? "" : `${sessionId}-`;
    expect(ids).toEqual([`${prefix}cmp-1`, `${prefix}cmp-2`, `${prefix}cmp-3`]);
  });

  it("when the context passes the threshold, then the agent compacts on its own inside the turn", async () => {
    const sessionId = await agent.newSession();
    const fill = await turn(sessionId, "/demo fill 85");
    expect(frameSequence(fill.frames)).toEqual([
      "tool_call:in_progress",
      "tool_call_update:completed",
      "agent_message_chunk+",
      "usage_update",
      "response:end_turn",
    ]);
    expect(updates(fill.frames, "usage_update")[0]?.used).toBe(170_000);

    const { frames } = await turn(sessionId, "And now?");
    expect(frameSequence(frames)).toEqual([
      "tool_call:in_progress",
      "tool_call_update:completed",
      "agent_message_chunk+",
      "usage_update",
      "compaction_update:in_progress",
      "compaction_summary_chunk+",
      "compaction_update:completed",
      "usage_update",
      "response:end_turn",
    ]);
    const [high, low] = updates(frames, "usage_update").map((u) => Number(u?.used));
    expect(high).toBeGreaterThan(160_000);
    expect(low).toBe(Math.round((high ?? 0) * 0.2));
  });

  it("when the client cancels during a compaction, then it ends cancelled and the prompt answers cancelled", async () => {
    const sessionId = await agent.newSession();
    await turn(sessionId, "/demo slow 30");
    const from = agent.raw.length;
    const pending = agent.prompt(sessionId, "/compact");
    await agent.waitForRaw((frame) => updateOf(frame)?.status === "in_progress", from);
    await agent.cancel(sessionId);
    const response = await pending;

    expect(response.stopReason).toBe("cancelled");
    expect(frameSequence(agent.raw.slice(from))).toEqual([
      "compaction_update:in_progress",
      "compaction_update:cancelled",
      "response:cancelled",
    ]);
  });
});
