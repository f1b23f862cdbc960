// Bounded replay on a stopAndWait, with real demo agent processes and a real ledger: an agent
// that cannot `session/load` gets the conversation with its next prompt, exactly once.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildReplay,
  DEFAULT_REPLAY_BUDGET,
  type ReplayBudget,
  replayMessagesOf,
} from "../domain/bounded-replay";
import { demoAgent, startTestDaemon, type TestDaemon } from "../testing/daemon";
import {
  lastReply,
  promptAndWait,
  receivedReplays,
  stopAndWait,
  transcript,
} from "../testing/session-driver";

function boundedLogs(daemon: TestDaemon, sessionId: string) {
  return daemon
    .logs()
    .filter((line) => line.startsWith("session.replay.bounded "))
    .map((line) => JSON.parse(line.slice("session.replay.bounded ".length)))
    .filter((entry) => entry.session_id === sessionId);
}

function expectedRestartReplay(
  messages: Parameters<typeof replayMessagesOf>[0],
  budget: ReplayBudget,
  sessionId: string,
) {
  return buildReplay({
    messages: replayMessagesOf(messages),
    budget,
    reason: "restart",
    sourceSessionId: sessionId,
    historyToolOffered: false,
  });
}

const agentDir = mkdtempSync(join(tmpdir(), "tideline-replay-agents-"));
afterAll(() => rmSync(agentDir, { recursive: true, force: true }));

describe("restart with an agent that cannot session/load", () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon({
      agents: [
        { ...demoAgent(agentDir, "demo", ["--no-load-session"]), name: "demo" },
        { ...demoAgent(agentDir, "loader"), name: "loader" },
      ],
    });
  });
  afterAll(() => daemon.stop());

  it("when the session is stopped and prompted again, then the agent receives the whole conversation once, byte for byte, and the ledger keeps only the user's words", async () => {
    const session = await daemon.createActiveSession("demo");
    await promptAndWait(daemon, session.id, "Plan the billing migration in src/billing.ts");
    await promptAndWait(daemon, session.id, "Which tests would you write first?");
    await stopAndWait(daemon, session.id);
    const before = await transcript(daemon, session.id);
    const expected = expectedRestartReplay(before, DEFAULT_REPLAY_BUDGET, session.id);

    await promptAndWait(daemon, session.id, "Go on with the plan.");
    const received = receivedReplays(agentDir, daemon, session.id);
    expect(received).toHaveLength(1);
    expect(received[0]?.text).toBe(expected.text);
    expect(received[0]).toMatchObject({ messageCount: expected.messageCount, omitted: 0 });
    expect(expected.messageCount).toBeGreaterThanOrEqual(4);
    const after = await transcript(daemon, session.id);
    expect(lastReply(after)).toContain(
      `Picked up from a context replay: ${expected.messageCount} messages (${expected.bytes} bytes).`,
    );
    // The ledger's input row is the user's message, not the replay.
    const users = after.filter((m) => m.role === "user");
    const last = users.at(-1)?.parts[0];
    expect(last?.type === "text" ? last.text : "").toBe("Go on with the plan.");
    expect(boundedLogs(daemon, session.id)).toEqual([
      {
        session_id: session.id,
        reason: "restart",
        message_count: expected.messageCount,
        omitted_count: 0,
        first_user_pinned: false,
        bytes: expected.bytes,
      },
    ]);

    await promptAndWait(daemon, session.id, "And after that?");
    expect(receivedReplays(agentDir, daemon, session.id)).toHaveLength(1);
    expect(daemon.ledger.replays.get(session.id)).toBeUndefined();
  }, 60_000);

  it("when the agent can session/load, then the prompt after a stop reopens it and sends no replay", async () => {
    const session = await daemon.createActiveSession("loader");
    await promptAndWait(daemon, session.id, "Remember the word tideline.");
    const acp = daemon.ledger.store.getSession(session.id)?.acp_session_id;
    await stopAndWait(daemon, session.id);
    await promptAndWait(daemon, session.id, "What was the word?");
    expect(daemon.ledger.store.getSession(session.id)?.acp_session_id).toBe(acp);
    expect(receivedReplays(agentDir, daemon, session.id)).toEqual([]);
    expect(boundedLogs(daemon, session.id)).toEqual([]);
  }, 60_000);
});

describe("a budget that forces omissions", () => {
  const budget = { maxReplayBytes: 2048, maxMessageBytes: 1024 };
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon({
      agents: [demoAgent(agentDir, "demo", ["--no-load-session"])],
      replayBudget: budget,
    });
  });
  afterAll(() => daemon.stop());

  it("when the conversation exceeds the budget, then the first request is pinned, the newest messages arrive, and the omissions are counted and logged", async () => {
    const session = await daemon.createActiveSession();
    const first = "Migrate the billing service to the new ledger API";
    await promptAndWait(daemon, session.id, first);
    for (let turn = 2; turn <= 9; turn += 1) {
      await promptAndWait(daemon, session.id, `Step ${turn}: what now?`);
    }
    await stopAndWait(daemon, session.id);
    const expected = expectedRestartReplay(
      await transcript(daemon, session.id),
      budget,
      session.id,
    );
    expect(expected.omittedCount).toBeGreaterThan(0);

    await promptAndWait(daemon, session.id, "Continue.");
    const [received] = receivedReplays(agentDir, daemon, session.id);
    expect(received?.text).toBe(expected.text);
    expect(received?.omitted).toBe(expected.omittedCount);
    expect(received?.text).toContain(`{"role":"user","content":"${first}"}`);
    expect(received?.text).toMatch(
      new RegExp(`\\n${expected.omittedCount} earlier messages? (is|are) not in the replay\\.\\n`),
    );
    expect(lastReply(await transcript(daemon, session.id))).toContain(
      `, ${expected.omittedCount} earlier one${expected.omittedCount === 1 ? "" : "s"} omitted`,
    );
    expect(boundedLogs(daemon, session.id)).toEqual([
      expect.objectContaining({
        reason: "restart",
        omitted_count: expected.omittedCount,
        first_user_pinned: true,
        message_count: expected.messageCount,
      }),
    ]);
    // Every read surface still has the whole conversation.
    const users = (await transcript(daemon, session.id)).filter((m) => m.role === "user");
    expect(users).toHaveLength(10);
  }, 90_000);
});
