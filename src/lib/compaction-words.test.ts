import { describe, expect, it } from "vitest";
import type { Entry } from "../contract/transcript";
import {
  compactionRunning,
  compactionState,
  failureDetail,
  stateWord,
  transcriptCompactions,
} from "./compaction-words";

function compaction(sequence: number, id: string, status: string, error?: string): Entry {
  return {
    start_sequence: sequence,
    sequence,
    message: {
      id: `m${sequence}`,
      role: "assistant",
      parts: [
        {
          type: "data-compozy-compaction",
          id,
          data: {
            kind: "compaction",
            compaction_id: id,
            status,
            ...(error ? { error } : {}),
            started_at: "2026-01-01T00:00:00Z",
          },
        },
      ],
    },
  } as Entry;
}

describe("one word per compaction state", () => {
  it("when the agent exited mid-compaction, then the state is interrupted, not cancelled", () => {
    expect(compactionState({ status: "cancelled", error: "agent exited (code 3)" })).toBe(
      "interrupted",
    );
    expect(stateWord("interrupted")).toBe("interrupted");
    expect(compactionState({ status: "cancelled" })).toBe("cancelled");
  });

  it("when the status is a vendor's, then it reads as itself", () => {
    expect(stateWord("in_progress")).toBe("in progress");
    expect(stateWord("_paused")).toBe("_paused");
    expect(stateWord("constructor")).toBe("constructor");
  });

  it("when the agent's error restates the failure, then 'failed' is said once", () => {
    expect(failureDetail("Compaction failed: context too small")).toBe("context too small");
    expect(failureDetail("context compaction failed — rolled back")).toBe("rolled back");
    expect(failureDetail("Compaction failed")).toBeUndefined();
    expect(failureDetail("  ")).toBeUndefined();
    expect(failureDetail("model overloaded")).toBe("model overloaded");
  });
});

describe("the transcript's compactions", () => {
  it("maps each id to its newest state", () => {
    expect(
      transcriptCompactions([
        compaction(1, "a", "completed"),
        compaction(2, "b", "cancelled", "agent exited (code 3)"),
      ]),
    ).toEqual({ a: { state: "completed" }, b: { state: "interrupted" } });
  });

  it("says a compaction runs only while the newest one has not ended", () => {
    expect(compactionRunning([])).toBe(false);
    expect(compactionRunning([compaction(1, "a", "in_progress")])).toBe(true);
    expect(compactionRunning([compaction(1, "a", "_paused")])).toBe(true);
    expect(
      compactionRunning([compaction(1, "a", "in_progress"), compaction(2, "a", "completed")]),
    ).toBe(false);
    expect(compactionRunning([compaction(1, "a", "cancelled", "agent exited")])).toBe(false);
  });
});
