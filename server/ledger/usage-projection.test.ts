// The usage read model (docs/ledger.md §5) as the reader serves it.
import { afterEach, describe, expect, it } from "vitest";
import {
  contextAfterOf,
  DaemonUsageEnvelope as UsageEnvelope,
  UsageTurns,
} from "../../src/contract/usage";
import { frames, openTestSession, type TestSession } from "../testing/ledger-session";

let t: TestSession;
afterEach(() => t?.ledger.close());

const usage = () => UsageEnvelope.parse({ usage: t.ledger.reader.usage(t.sessionId) }).usage;
const turns = () => {
  const result = t.ledger.reader.usageTurns(t.sessionId);
  expect(UsageTurns.parse(result)).toEqual(result);
  return result;
};

describe("usage projection: the context reading", () => {
  it("when nothing was reported, then the state is unknown with no numbers and no cleared_by", () => {
    t = openTestSession();
    expect(t.ledger.reader.usage(t.sessionId)).toStrictEqual({
      context: { state: "unknown" },
      turn_count: 0,
    });
  });

  it("when the agent reports usage, then the newest reading is reported with its ratio", () => {
    t = openTestSession();
    t.ledger.recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(100, 1000));
    t.tick();
    t.ledger.recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(250, 1000));
    expect(usage().context).toStrictEqual({
      state: "reported",
      used: 250,
      size: 1000,
      ratio: 0.25,
      size_source: "agent",
      sequence: 2,
      reported_turn_id: "turn-1",
      reported_at: "2026-01-01T00:00:01.000Z",
    });
  });

  it("when a compaction finishes after the reading, then the state is unknown with cleared_by", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(900, 1000));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "in_progress"));
    expect(usage().context.state).toBe("reported");
    const [terminal] = recorder.recordUpdate(
      t.sessionId,
      "turn-1",
      frames.compaction("c1", "failed"),
    );
    expect(usage().context).toStrictEqual({
      state: "unknown",
      cleared_by: { compaction_id: "c1", sequence: terminal?.sequence },
    });
  });

  it("when prompt counters and cost arrive after a compaction, then they never restore the reading", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordUpdate(
      t.sessionId,
      "turn-1",
      frames.usage(900, 1000, { amount: 0.5, currency: "USD" }),
    );
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "completed"));
    recorder.recordPromptCompleted(t.sessionId, "turn-1", {
      stop_reason: "end_turn",
      input_tokens: 1200,
      output_tokens: 300,
    });
    expect(usage()).toStrictEqual({
      context: { state: "unknown", cleared_by: { compaction_id: "c1", sequence: 2 } },
      input_tokens: 1200,
      output_tokens: 300,
      total_cost: 0.5,
      cost_currency: "USD",
      // CompozyOS's web shows "—" for a cost without a status.
      cost_status: "actual",
      cost_source: "agent_reported",
      turn_count: 1,
    });
  });

  it("when a fresh reading follows the compaction, then it is reported again", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(900, 1000));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "completed"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(120, 1000));
    expect(usage().context).toMatchObject({ state: "reported", used: 120 });
    expect(usage().context).not.toHaveProperty("cleared_by");
  });

  it("when a later correction of the compaction arrives, then the boundary does not move", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "completed"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(120, 1000));
    recorder.recordUpdate(
      t.sessionId,
      "turn-1",
      frames.compaction("c1", "failed", { error: "late" }),
    );
    expect(usage().context).toMatchObject({ state: "reported", used: 120 });
  });

  it("when the reading has no size and the agent has a configured window, then the size is estimated", () => {
    t = openTestSession(":memory:", { contextWindows: { demo: 200_000 } });
    t.ledger.recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(50_000, 0));
    expect(usage().context).toMatchObject({
      state: "estimated_size",
      used: 50_000,
      size: 200_000,
      ratio: 0.25,
      size_source: "catalog",
    });
  });

  it("when the reading has no size and no window is configured, then only used is reported", () => {
    t = openTestSession(":memory:", { contextWindows: { other: 1000 } });
    t.ledger.recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(50, 0));
    const context = usage().context;
    expect(context).toMatchObject({ state: "reported", used: 50 });
    expect(context).not.toHaveProperty("size");
    expect(context).not.toHaveProperty("ratio");
  });

  it("when several prompts complete, then token totals are summed and cost is the newest cumulative cost", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordPromptCompleted(t.sessionId, "turn-1", {
      stop_reason: "end_turn",
      input_tokens: 10,
      total_tokens: 15,
    });
    recorder.recordUpdate(
      t.sessionId,
      "turn-2",
      frames.usage(1, 10, { amount: 0.2, currency: "USD" }),
    );
    recorder.recordUpdate(
      t.sessionId,
      "turn-2",
      frames.usage(2, 10, { amount: 0.3, currency: "USD" }),
    );
    recorder.recordUpdate(t.sessionId, "turn-2", frames.usage(3, 10));
    recorder.recordPromptCompleted(t.sessionId, "turn-2", {
      stop_reason: "end_turn",
      input_tokens: 20,
      cache_read_tokens: 7,
    });
    expect(usage()).toMatchObject({
      input_tokens: 30,
      total_tokens: 15,
      cache_read_tokens: 7,
      total_cost: 0.3,
      cost_currency: "USD",
      turn_count: 2,
    });
    expect(usage()).not.toHaveProperty("output_tokens");
  });
});

describe("usage projection: turns and markers", () => {
  it("when a turn has usage rows and a completion, then they merge into one row, last non-null wins", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordInput(t.sessionId, "turn-1", "go");
    recorder.recordUpdate(
      t.sessionId,
      "turn-1",
      frames.usage(100, 1000, { amount: 0.1, currency: "USD" }),
    );
    t.tick();
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(150, 1000));
    t.tick();
    recorder.recordPromptCompleted(t.sessionId, "turn-1", {
      stop_reason: "end_turn",
      input_tokens: 40,
      output_tokens: 8,
      thought_tokens: 2,
    });
    recorder.recordInput(t.sessionId, "turn-2", "again");
    expect(turns().turns).toStrictEqual([
      {
        turn_id: "turn-1",
        sequence: 1,
        usage: {
          context_used: 150,
          context_size: 1000,
          cost_amount: 0.1,
          cost_currency: "USD",
          input_tokens: 40,
          output_tokens: 8,
          thought_tokens: 2,
          timestamp: "2026-01-01T00:00:02.000Z",
          context_sequence: 3,
        },
      },
      { turn_id: "turn-2", sequence: 5 },
    ]);
    expect(usage().turn_count).toBe(2);
  });

  it("when compactions fire, then one marker per id with trigger, status, fired context, and the newest snapshot", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(900, 1000)); // 1
    recorder.recordCompactionRequested(t.sessionId, "turn-2", {
      command: "compact",
      requested_by: "web",
    }); // 2,3
    recorder.recordUpdate(t.sessionId, "turn-2", frames.compaction("c1", "in_progress")); // 4,5
    recorder.recordUpdate(t.sessionId, "turn-2", frames.usage(950, 1000)); // 6: before terminal, ignored
    recorder.recordUpdate(t.sessionId, "turn-2", frames.compaction("c1", "completed")); // 7
    recorder.recordUpdate(t.sessionId, "turn-2", frames.usage(200, 1000)); // 8: context_after of c1
    recorder.recordUpdate(t.sessionId, "turn-2", frames.usage(210, 1000)); // 9
    recorder.recordUpdate(t.sessionId, null, frames.compaction("c2", "_paused")); // 10,11
    expect(turns().compactions).toStrictEqual([
      {
        turn_id: "turn-2",
        sequence: 7,
        at: "2026-01-01T00:00:00.000Z",
        compaction_id: "c1",
        trigger: "requested",
        status: "completed",
        // The first reading after the terminal snapshot (row 8), in the compaction's own turn.
        context_after: {
          used: 200,
          size: 1000,
          sequence: 8,
          turn_id: "turn-2",
          reported_at: "2026-01-01T00:00:00.000Z",
        },
        context_used: 900,
        context_size: 1000,
      },
      {
        turn_id: "",
        sequence: 10,
        at: "2026-01-01T00:00:00.000Z",
        compaction_id: "c2",
        trigger: "agent",
        status: "_paused",
        context_after: null,
        context_used: 210,
        context_size: 1000,
      },
    ]);
  });

  it("when a compaction finishes in a later turn, then its marker's turn, sequence, at and status are the newest snapshot's", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordInput(t.sessionId, "turn-1", "go"); // 1
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "in_progress")); // 2,3
    expect(turns().compactions[0]).toMatchObject({ turn_id: "turn-1", sequence: 2 });
    recorder.recordInput(t.sessionId, "turn-2", "more"); // 4
    const [done] = recorder.recordUpdate(
      t.sessionId,
      "turn-2",
      frames.compaction("c1", "completed"),
    ); // 5
    expect(turns().compactions).toStrictEqual([
      {
        turn_id: "turn-2",
        sequence: 5,
        at: done?.created_at,
        compaction_id: "c1",
        trigger: "agent",
        status: "completed",
        context_after: null,
      },
    ]);
  });

  it("when the compaction's own turn reports after its terminal snapshot, then that reading is the after figure, not the next turn's", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordInput(t.sessionId, "turn-1", "go"); // 1
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(140, 200)); // 2: before
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "completed")); // 3,4
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(28, 200)); // 5: first after
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(30, 200)); // 6
    recorder.recordInput(t.sessionId, "turn-2", "next"); // 7
    recorder.recordUpdate(t.sessionId, "turn-2", frames.usage(287, 200)); // 8
    recorder.recordPromptCompleted(t.sessionId, "turn-2", { stop_reason: "end_turn" });
    const read = turns();
    const marker = read.compactions[0];
    expect(marker?.context_after).toMatchObject({ used: 28, size: 200, sequence: 5 });
    expect(marker && contextAfterOf(marker, read)).toEqual({
      used: 28,
      size: 200,
      sequence: 5,
      turn_id: "turn-1",
    });
    // The turn's own figure is its last reading, placed by that report's sequence.
    expect(read.turns[0]?.usage).toMatchObject({ context_used: 30, context_sequence: 6 });
  });

  it("when two compactions run in a row, then each one's after figure is its own, never the next one's", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordInput(t.sessionId, "turn-1", "/compact"); // 1
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "in_progress")); // 2,3
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "completed")); // 4
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(145, 1000)); // 5
    recorder.recordInput(t.sessionId, "turn-2", "/compact"); // 6
    recorder.recordUpdate(t.sessionId, "turn-2", frames.compaction("c2", "in_progress")); // 7,8
    // While the second runs, the first already has its figure.
    expect(turns().compactions.map((m) => m.context_after?.used ?? null)).toEqual([145, null]);
    recorder.recordUpdate(t.sessionId, "turn-2", frames.compaction("c2", "completed")); // 9
    recorder.recordUpdate(t.sessionId, "turn-2", frames.usage(29, 1000)); // 10
    recorder.recordInput(t.sessionId, "turn-3", "go on"); // 11
    recorder.recordUpdate(t.sessionId, "turn-3", frames.usage(643, 1000)); // 12
    expect(turns().compactions.map((m) => m.context_after?.used ?? null)).toEqual([145, 29]);
  });

  it("when a compaction has no reading before the next one begins, then its after figure is null", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "completed"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c2", "completed"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(10, 100));
    const read = turns();
    const [first, second] = read.compactions;
    expect(first?.context_after).toBeNull();
    expect(first).not.toHaveProperty("context_used");
    expect(first && contextAfterOf(first, read)).toBeUndefined();
    expect(second && contextAfterOf(second, read)).toMatchObject({ used: 10 });
  });
});
