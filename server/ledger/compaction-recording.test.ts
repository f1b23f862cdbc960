// The compaction rules as the recorder applies them to the ledger (acp-intake.md §3):
// which rows are appended, the fired event, the daemon-side close, bad frames.
import { afterEach, describe, expect, it } from "vitest";
import { DaemonEntry } from "../../src/contract/transcript";
import { frames, openTestSession, type TestSession } from "../testing/ledger-session";

let t: TestSession;
afterEach(() => t?.ledger.close());

const types = (rows: { type: string }[]) => rows.map((row) => row.type);

/** The fired payloads as read: under `content.raw`, as CompozyOS shows them. */
function firedEvents() {
  return t.ledger.reader
    .events(t.sessionId, { type: "session.compaction_fired", limit: 100 })
    .events.map((event) => {
      const { schema: _s, timestamp: _t, type: _type, raw, ...rest } = event.content;
      expect(rest).toEqual({});
      return raw as Record<string, unknown>;
    });
}

describe("recording compaction frames", () => {
  it("when a compaction is first seen by an update, then one snapshot and one fired event are appended", () => {
    t = openTestSession();
    const rows = t.ledger.recorder.recordUpdate(
      t.sessionId,
      "turn-1",
      frames.compaction("c1", "in_progress"),
    );
    expect(types(rows)).toEqual(["compaction", "session.compaction_fired"]);
    expect(rows[0]?.content).toEqual({ compaction_id: "c1", status: "in_progress" });
  });

  it("when a compaction is first seen by a chunk, then chunk row, snapshot and fired event are appended in that order", () => {
    t = openTestSession();
    const rows = t.ledger.recorder.recordUpdate(t.sessionId, "turn-1", frames.chunk("c1", "Sum"));
    expect(types(rows)).toEqual(["compaction.chunk", "compaction", "session.compaction_fired"]);
    expect(rows[0]?.content).toEqual({
      compaction_id: "c1",
      content: { type: "text", text: "Sum" },
    });
  });

  it("when chunks arrive while in progress, then only chunk rows are appended and the entry does not change", () => {
    t = openTestSession();
    t.ledger.recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "in_progress"));
    const before = t.ledger.reader.maxSequence(t.sessionId);
    const rows = t.ledger.recorder.recordUpdate(
      t.sessionId,
      "turn-1",
      frames.chunk("c1", "hidden"),
    );
    expect(types(rows)).toEqual(["compaction.chunk"]);
    expect(t.ledger.reader.entriesChangedAfter(t.sessionId, before)).toEqual([]);
  });

  it("when a correction follows the terminal row, then no second terminal and no second fired event", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "in_progress"));
    const done = recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "completed"));
    const fix = recorder.recordUpdate(
      t.sessionId,
      "turn-1",
      frames.compaction("c1", "failed", { error: "late failure" }),
    );
    expect(done[0]?.content).toEqual({ compaction_id: "c1", status: "completed", terminal: true });
    expect(fix.map((row) => row.content)).toEqual([
      { compaction_id: "c1", status: "failed", error: "late failure" },
    ]);
    expect(firedEvents()).toHaveLength(1);
  });

  it("when the turn was started by Compact now, then the trigger is requested", () => {
    t = openTestSession();
    t.ledger.recorder.recordCompactionRequested(t.sessionId, "turn-c", {
      command: "compact",
      requested_by: "web",
    });
    t.ledger.recorder.recordUpdate(t.sessionId, "turn-c", frames.compaction("c1", "in_progress"));
    t.ledger.recorder.recordUpdate(t.sessionId, "turn-2", frames.compaction("c2", "in_progress"));
    t.ledger.recorder.recordUpdate(t.sessionId, null, frames.compaction("c3", "in_progress"));
    expect(firedEvents().map((event) => [event.compaction_id, event.trigger])).toEqual([
      ["c1", "requested"],
      ["c2", "agent"],
      ["c3", "agent"],
    ]);
  });

  it("when usage was reported before, then the fired event carries the newest reading before the compaction", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(100, 1000));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(800, 1000));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "in_progress"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(900, 1000));
    expect(firedEvents()).toEqual([
      { compaction_id: "c1", trigger: "agent", context_used: 800, context_size: 1000 },
    ]);
  });

  it("when the only reading predates an earlier compaction's terminal row, then the fired context is null", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(800, 1000));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "in_progress"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "completed"));
    recorder.recordUpdate(t.sessionId, "turn-2", frames.compaction("c2", "in_progress"));
    expect(firedEvents()[1]).toEqual({
      compaction_id: "c2",
      trigger: "agent",
      context_used: null,
      context_size: null,
    });
  });

  it("when a reading follows the earlier compaction's terminal row, then the next fired event uses it", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "completed"));
    recorder.recordUpdate(t.sessionId, "turn-2", frames.usage(300, 1000));
    recorder.recordUpdate(t.sessionId, "turn-2", frames.compaction("c2", "in_progress"));
    expect(firedEvents()[1]).toMatchObject({ context_used: 300, context_size: 1000 });
  });

  it.each([
    ["no compactionId", { sessionUpdate: "compaction_update", status: "completed" }],
    ["no status", { sessionUpdate: "compaction_update", compactionId: "c1" }],
    ["a summary of the wrong type", frames.compaction("c1", "completed", { summary: "plain" })],
    ["an error of the wrong type", frames.compaction("c1", "failed", { error: 42 })],
    ["a chunk without content", { sessionUpdate: "compaction_summary_chunk", compactionId: "c1" }],
  ])(
    "when a compaction frame has %s, then it is recorded as invalid and nothing is applied",
    (_name, frame) => {
      t = openTestSession();
      const rows = t.ledger.recorder.recordUpdate(t.sessionId, "turn-1", frame);
      expect(types(rows)).toEqual(["agent.invalid_frame"]);
      expect(JSON.parse(String(rows[0]?.content.raw))).toEqual(frame);
      expect(t.ledger.reader.openCompactions(t.sessionId)).toEqual([]);
      // The session goes on: a valid frame afterwards is recorded normally.
      const next = t.ledger.recorder.recordUpdate(
        t.sessionId,
        "turn-1",
        frames.compaction("c1", "in_progress"),
      );
      expect(types(next)).toEqual(["compaction", "session.compaction_fired"]);
    },
  );

  it("when the agent exits mid-compaction, then the daemon closes each open one before agent.exited", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordUpdate(t.sessionId, "turn-1", frames.chunk("c1", "partial"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c2", "_paused"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c3", "completed"));
    expect(t.ledger.reader.openCompactions(t.sessionId)).toEqual(["c1", "c2"]);
    const rows = recorder.recordAgentExited(t.sessionId, "turn-1", { code: 1, signal: null });
    expect(rows.map((row) => [row.type, row.content])).toEqual([
      [
        "compaction",
        {
          compaction_id: "c1",
          status: "cancelled",
          summary: "partial",
          error: "agent exited before the compaction finished",
          terminal: true,
          source: "daemon",
        },
      ],
      [
        "compaction",
        {
          compaction_id: "c2",
          status: "cancelled",
          error: "agent exited before the compaction finished",
          terminal: true,
          source: "daemon",
        },
      ],
      ["agent.exited", { code: 1, signal: null }],
    ]);
    expect(t.ledger.reader.openCompactions(t.sessionId)).toEqual([]);
  });

  it("when the session is stopped with nothing open, then closeOpenCompactions appends nothing", () => {
    t = openTestSession();
    t.ledger.recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "in_progress"));
    expect(types(t.ledger.recorder.closeOpenCompactions(t.sessionId, null))).toEqual([
      "compaction",
    ]);
    expect(t.ledger.recorder.closeOpenCompactions(t.sessionId, null)).toEqual([]);
  });

  it("when message chunks without ids surround a compaction, then they form two separate assistant messages", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordUpdate(t.sessionId, "turn-1", frames.text("Before "));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.text("compaction."));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "in_progress"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.text("After "));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "completed"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.text("compaction."));
    const entries = t.ledger.reader.transcriptPage(t.sessionId, { limit: 10 }).entries;
    expect(
      entries.map((entry) => [
        entry.message.role,
        entry.message.parts.map((p) => ("text" in p ? p.text : p.type)),
      ]),
    ).toEqual([
      ["assistant", ["Before compaction."]],
      ["assistant", ["data-compozy-compaction"]],
      ["assistant", ["After compaction."]],
    ]);
  });

  it("when a legacy agent shows a 'Compact conversation' tool call, then it stays an ordinary tool row", () => {
    t = openTestSession();
    t.ledger.recorder.recordUpdate(
      t.sessionId,
      "turn-1",
      frames.tool("k", { title: "Compact conversation", kind: "other", status: "completed" }),
    );
    t.ledger.recorder.recordUpdate(
      t.sessionId,
      "turn-1",
      frames.text("I compacted the conversation."),
    );
    const entries = t.ledger.reader.transcriptPage(t.sessionId, { limit: 10 }).entries;
    expect(entries.map((entry) => entry.message.parts[0]?.type)).toEqual(["tool-other", "text"]);
    expect(t.ledger.reader.usageTurns(t.sessionId).compactions).toEqual([]);
    expect(t.ledger.reader.openCompactions(t.sessionId)).toEqual([]);
  });

  it("when the compaction entry is folded, then started_at is the first row and ended_at the terminal row, never moved", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordUpdate(t.sessionId, "turn-1", frames.compaction("c1", "in_progress"));
    t.tick();
    recorder.recordUpdate(
      t.sessionId,
      "turn-1",
      frames.compaction("c1", "completed", {
        summary: [{ type: "text", text: "Kept the plan." }],
      }),
    );
    t.tick();
    recorder.recordUpdate(
      t.sessionId,
      "turn-1",
      frames.compaction("c1", "failed", { error: "oops" }),
    );
    const [entry] = t.ledger.reader.transcriptPage(t.sessionId, { limit: 10 }).entries;
    expect(DaemonEntry.parse(entry)).toEqual(entry);
    expect(entry?.message.parts).toEqual([
      {
        type: "data-compozy-compaction",
        id: "c1",
        data: {
          kind: "compaction",
          compaction_id: "c1",
          status: "failed",
          summary: "Kept the plan.",
          error: "oops",
          started_at: "2026-01-01T00:00:00.000Z",
          ended_at: "2026-01-01T00:00:01.000Z",
        },
      },
    ]);
    expect(entry?.message.role).toBe("assistant");
  });
});
