import { describe, expect, it } from "vitest";
import {
  frameSequence,
  sharedDemoAgent,
  startDemoAgent,
  textOf,
  updateOf,
  updatesOf,
} from "../testing/demo-agent-client";
import { CRASH_EXIT_CODE } from "./compact-conversation";
import { BAD_FRAME_TEXT } from "./compaction-runner";
import { CORRECTION_ERROR, FAILURE_ERROR, LATE_CHUNK_TEXT } from "./compaction-script";
import { FAKE_API_KEY } from "./summary";

const agent = sharedDemoAgent({ capability: "advertised" });

const turn = (sessionId: string, text: string) => agent.turn(sessionId, text);

const updates = updatesOf;

/** A session with one ordinary turn, then `/demo <scenario>`, then the frames of `/compact`. */
async function compactAfter(scenario: string) {
  const sessionId = await agent.newSession();
  await turn(sessionId, "Wire the compaction row into src/features/timeline/row.tsx");
  const armed = await turn(sessionId, `/demo ${scenario}`);
  expect(armed.response.stopReason).toBe("end_turn");
  return { sessionId, ...(await turn(sessionId, "/compact")) };
}

describe("compaction scenarios", () => {
  it("when fail is armed, then the compaction goes in_progress → failed with the error and no usage", async () => {
    const { frames } = await compactAfter("fail");
    expect(frameSequence(frames)).toEqual([
      "compaction_update:in_progress",
      "compaction_update:failed",
      "response:end_turn",
    ]);
    expect(updates(frames, "compaction_update").at(-1)?.error).toBe(FAILURE_ERROR);
  });

  it("when paused is armed, then in_progress → chunks → _paused → completed", async () => {
    const { frames } = await compactAfter("paused");
    expect(frameSequence(frames)).toEqual([
      "compaction_update:in_progress",
      "compaction_summary_chunk+",
      "compaction_update:_paused",
      "compaction_update:completed",
      "usage_update",
      "response:end_turn",
    ]);
  });

  it("when slow 1 is armed, then the compaction stays in progress that long even at speed 0", async () => {
    const sessionId = await agent.newSession();
    await turn(sessionId, "/demo slow 1");
    const started = performance.now();
    const { frames } = await turn(sessionId, "/compact");
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(frameSequence(frames)).toEqual([
      "compaction_update:in_progress",
      "compaction_summary_chunk+",
      "compaction_update:completed",
      "usage_update",
      "response:end_turn",
    ]);
  });

  it("when codex is armed, then in_progress → completed with no summary, no chunks and no usage report", async () => {
    const { frames } = await compactAfter("codex");
    expect(frameSequence(frames)).toEqual([
      "compaction_update:in_progress",
      "compaction_update:completed",
      "response:end_turn",
    ]);
    expect(updates(frames, "compaction_update").at(-1)).not.toHaveProperty("summary");
  });

  it("when correct is armed, then completed is corrected to failed in the same turn", async () => {
    const { frames } = await compactAfter("correct");
    expect(frameSequence(frames)).toEqual([
      "compaction_update:in_progress",
      "compaction_summary_chunk+",
      "compaction_update:completed",
      "compaction_update:failed",
      "response:end_turn",
    ]);
    const statuses = updates(frames, "compaction_update");
    expect(new Set(statuses.map((update) => update?.compactionId)).size).toBe(1);
    expect(statuses.at(-1)?.error).toBe(CORRECTION_ERROR);
  });

  it("when late-chunk is armed, then a summary chunk follows the terminal update", async () => {
    const { frames } = await compactAfter("late-chunk");
    expect(frameSequence(frames)).toEqual([
      "compaction_update:in_progress",
      "compaction_summary_chunk+",
      "compaction_update:completed",
      "compaction_summary_chunk",
      "usage_update",
      "response:end_turn",
    ]);
    expect(textOf(updates(frames, "compaction_summary_chunk").at(-1)?.content)).toBe(
      LATE_CHUNK_TEXT,
    );
  });

  it("when replace is armed, then the completed summary differs from the streamed draft", async () => {
    const { frames } = await compactAfter("replace");
    expect(frameSequence(frames)).toEqual([
      "compaction_update:in_progress",
      "compaction_summary_chunk+",
      "compaction_update:completed",
      "usage_update",
      "response:end_turn",
    ]);
    const draft = updates(frames, "compaction_summary_chunk")
      .map((chunk) => textOf(chunk?.content))
      .join("");
    const summary = textOf(updates(frames, "compaction_update").at(-1)?.summary);
    expect(draft).toContain("Draft summary");
    expect(summary).toContain("## Conversation summary");
    expect(summary).not.toBe(draft);
  });

  it("when clear is armed, then chunks are followed by completed with summary []", async () => {
    const { frames } = await compactAfter("clear");
    expect(frameSequence(frames)).toEqual([
      "compaction_update:in_progress",
      "compaction_summary_chunk+",
      "compaction_update:completed",
      "usage_update",
      "response:end_turn",
    ]);
    expect(updates(frames, "compaction_update").at(-1)?.summary).toEqual([]);
  });

  it("when big is armed, then the summary is over 16 KiB and holds a fake API key", async () => {
    const { frames } = await compactAfter("big");
    expect(frameSequence(frames)).toEqual([
      "compaction_update:in_progress",
      "compaction_summary_chunk+",
      "compaction_update:completed",
      "usage_update",
      "response:end_turn",
    ]);
    const summary = textOf(updates(frames, "compaction_update").at(-1)?.summary);
    expect(Buffer.byteLength(summary)).toBeGreaterThan(16_384);
    expect(summary).toContain(FAKE_API_KEY);
    expect(summary.indexOf("sk-ant-")).toBeLessThan(16_000);
  });

  it("when bad-frame is armed, then one compaction_update without status is on the wire and the SDK drops it", async () => {
    const { sessionId, frames } = await compactAfter("bad-frame");
    expect(frameSequence(frames)).toEqual([
      "compaction_update:in_progress",
      "compaction_update:<no status>",
      "compaction_summary_chunk+",
      "compaction_update:completed",
      "usage_update",
      "response:end_turn",
    ]);
    const bad = frames.find(
      (frame) => frameSequence([frame])[0] === "compaction_update:<no status>",
    );
    expect(bad?.json).toEqual({
      jsonrpc: "2.0",
      method: "session/update",
      params: {
        sessionId,
        update: {
          sessionUpdate: "compaction_update",
          compactionId: sessionId === "demo-1" ? "cmp-1" : `${sessionId}-cmp-1`,
          summary: [{ type: "text", text: BAD_FRAME_TEXT }],
        },
      },
    });
    const seenBySdk = agent.sdkUpdates.filter(
      (notification) =>
        notification.sessionId === sessionId &&
        notification.update.sessionUpdate === "compaction_update",
    );
    expect(seenBySdk.map((notification) => notification.update)).toEqual([
      expect.objectContaining({ status: "in_progress" }),
      expect.objectContaining({ status: "completed" }),
    ]);
  });

  it("when two scenarios are armed, then they shape the next two compactions in order", async () => {
    const sessionId = await agent.newSession();
    await turn(sessionId, "/demo fail");
    await turn(sessionId, "/demo codex");
    const first = await turn(sessionId, "/compact");
    const second = await turn(sessionId, "/compact");
    const third = await turn(sessionId, "/compact");
    expect(frameSequence(first.frames)).toContain("compaction_update:failed");
    expect(frameSequence(second.frames)).not.toContain("compaction_summary_chunk+");
    expect(frameSequence(third.frames)).toContain("compaction_summary_chunk+");
  });

  it("when the scenario is unknown, then the agent says so and arms nothing", async () => {
    const sessionId = await agent.newSession();
    const { frames } = await turn(sessionId, "/demo explode");
    const reply = updates(frames, "agent_message_chunk")
      .map((chunk) => textOf(chunk?.content))
      .join("");
    expect(reply).toContain('unknown scenario "explode"');
    const next = await turn(sessionId, "/compact");
    expect(frameSequence(next.frames)).toContain("compaction_update:completed");
  });
});

describe("reply scenarios", () => {
  it("when markdown is asked for, then the reply has headings, a table, code, a link and an image", async () => {
    const sessionId = await agent.newSession();
    const { frames } = await turn(sessionId, "/demo markdown");
    expect(frameSequence(frames)).toEqual([
      "agent_message_chunk+",
      "usage_update",
      "response:end_turn",
    ]);
    const reply = updates(frames, "agent_message_chunk")
      .map((chunk) => textOf(chunk?.content))
      .join("");
    expect(reply).toMatch(/^# /m);
    expect(reply).toContain("|---|---|");
    expect(reply).toContain("```ts");
    expect(reply).toMatch(/\[[^\]]+\]\(https:\/\//);
    expect(reply).toMatch(/!\[[^\]]+\]\(https:\/\//);
  });

  it("when tools is asked for, then several tool calls run and one fails", async () => {
    const sessionId = await agent.newSession();
    const { frames } = await turn(sessionId, "/demo tools");
    expect(frameSequence(frames)).toEqual([
      "agent_thought_chunk",
      "tool_call:in_progress",
      "tool_call_update:completed",
      "tool_call:in_progress",
      "tool_call_update:completed",
      "tool_call:in_progress",
      "tool_call_update:failed",
      "tool_call:in_progress",
      "tool_call_update:completed",
      "agent_message_chunk+",
      "usage_update",
      "response:end_turn",
    ]);
    const ids = updates(frames, "tool_call").map((update) => update?.toolCallId);
    expect(new Set(ids).size).toBe(4);
  });

  it("when fill 50 is asked for, then one long reply brings used to half the window without compacting", async () => {
    const sessionId = await agent.newSession();
    const { frames } = await turn(sessionId, "/demo fill 50");
    expect(frameSequence(frames)).toEqual([
      "tool_call:in_progress",
      "tool_call_update:completed",
      "agent_message_chunk+",
      "usage_update",
      "response:end_turn",
    ]);
    expect(updates(frames, "usage_update")[0]).toMatchObject({ used: 100_000, size: 200_000 });
    // The visible reply stays readable; the file read carries the rest of the growth.
    const text = updates(frames, "agent_message_chunk")
      .map((update) => textOf(update.content))
      .join("");
    expect(text.length).toBeLessThanOrEqual(25_000);
    expect(JSON.stringify(updates(frames, "tool_call_update")[0])).toMatch(/tokens now in context/);
  });

  it("when no-usage is asked for, then no usage_update is sent from then on", async () => {
    const sessionId = await agent.newSession();
    const off = await turn(sessionId, "/demo no-usage");
    const chat = await turn(sessionId, "Still there?");
    const compact = await turn(sessionId, "/compact");
    for (const { frames } of [off, chat, compact]) {
      expect(frameSequence(frames)).not.toContain("usage_update");
    }
    expect(frameSequence(compact.frames)).toContain("compaction_update:completed");
    expect(chat.response).toHaveProperty("usage.totalTokens");
  });
});

describe("idle", () => {
  it("when idle is asked for, then a compaction starts after the turn's response, between turns", async () => {
    const sessionId = await agent.newSession();
    const from = agent.raw.length;
    await agent.prompt(sessionId, "/demo idle");
    const completed = await agent.waitForRaw((frame) => {
      const update = updateOf(frame);
      return update?.sessionUpdate === "compaction_update" && update.status === "completed";
    }, from);
    const done = await agent.waitForRaw(
      (frame) => updateOf(frame)?.sessionUpdate === "usage_update",
      agent.raw.indexOf(completed),
    );
    const frames = agent.raw.slice(from, agent.raw.indexOf(done) + 1);
    expect(frameSequence(frames)).toEqual([
      "agent_message_chunk+",
      "usage_update",
      "response:end_turn",
      "compaction_update:in_progress",
      "compaction_summary_chunk+",
      "compaction_update:completed",
      "usage_update",
    ]);
    // The summary the model wrote between turns is charged in the report after it.
    const [turnCost, idleCost] = updatesOf(frames, "usage_update").map((report) =>
      Number((report?.cost as { amount?: number } | undefined)?.amount),
    );
    expect(idleCost).toBeGreaterThan(turnCost as number);
  });
});

describe("crash", () => {
  it("when crash is armed, then the process exits in the middle of the compaction", async () => {
    const crashing = await startDemoAgent({ capability: "advertised" });
    const sessionId = await crashing.newSession();
    await crashing.prompt(sessionId, "/demo crash");
    const from = crashing.raw.length;
    const outcome = crashing.connection.agent
      .request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/compact" }] })
      .then(
        () => "answered",
        () => "rejected",
      );
    const exit = await crashing.exited;
    expect(exit.code).toBe(CRASH_EXIT_CODE);
    expect(await outcome).toBe("rejected");
    expect(frameSequence(crashing.raw.slice(from))).toEqual([
      "compaction_update:in_progress",
      "compaction_summary_chunk",
    ]);
    expect(crashing.stderr()).toContain("crashing on purpose");
    await crashing.close();
  });
});
