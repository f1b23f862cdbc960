import { describe, expect, it } from "vitest";
import { compactionOutcome, outcomeExitCode, outcomeLine } from "./compaction-outcome";

const event = (sequence: number, type: string, content: unknown) => ({
  sequence,
  type,
  content,
});

describe("compactionOutcome", () => {
  it("when a turn has several snapshots, then the newest by sequence wins, whatever order they came in", () => {
    const events = [
      event(12, "compaction", { compaction_id: "c1", status: "failed", error: "late" }),
      event(10, "compaction", { compaction_id: "c1", status: "in_progress" }),
      event(11, "compaction", { compaction_id: "c1", status: "completed", terminal: true }),
    ];
    expect(compactionOutcome(events)).toEqual({
      outcome: "failed",
      compactionId: "c1",
      error: "late",
    });
  });

  it("when the snapshot sits under raw, then it is read there", () => {
    expect(
      compactionOutcome([
        event(1, "compaction", { raw: { compaction_id: "c", status: "cancelled" } }),
      ]),
    ).toEqual({ outcome: "cancelled", compactionId: "c" });
  });

  it("when no event is a usable snapshot, then not_reported", () => {
    const hostile = [
      event(1, "compaction", null),
      event(2, "compaction", "completed"),
      event(3, "compaction", { status: 3 }),
      event(4, "compaction", { status: "" }),
      event(5, "session.compaction_fired", { compaction_id: "c", status: "completed" }),
      event(6, "prompt.completed", { stop_reason: "end_turn" }),
    ];
    expect(compactionOutcome(hostile)).toEqual({ outcome: "not_reported" });
  });
});

describe("outcome exit codes and lines", () => {
  it("when mapping outcomes, then completed 0, failed/cancelled 4, anything unfinished 5", () => {
    expect(
      ["completed", "failed", "cancelled", "not_reported", "in_progress", "_paused"].map(
        outcomeExitCode,
      ),
    ).toEqual([0, 4, 4, 5, 5, 5]);
  });

  it("when the error already says it failed, then it is not said twice", () => {
    expect(outcomeLine({ outcome: "failed", error: "Compaction failed: too small" })).toBe(
      "Compaction failed: too small",
    );
    expect(outcomeLine({ outcome: "failed", error: "disk full" })).toBe(
      "Compaction failed: disk full",
    );
    expect(outcomeLine({ outcome: "_paused" })).toBe(
      "The turn ended with the compaction still _paused",
    );
  });
});
