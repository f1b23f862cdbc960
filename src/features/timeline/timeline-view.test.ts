import { describe, expect, it } from "vitest";
import type { Entry } from "../../contract/transcript";
import { indexOfStartSequence, showsSpeaker, summaryBoundaryIndex } from "./timeline-view";

function entry(start: number, role: Entry["message"]["role"], status?: string): Entry {
  const parts: Entry["message"]["parts"] = status
    ? [
        {
          type: "data-compozy-compaction",
          id: `c${start}`,
          data: {
            kind: "compaction",
            compaction_id: `c${start}`,
            status,
            started_at: "2026-11-30T08:00:00Z",
          },
        },
      ]
    : [{ type: "text", id: "t", text: "x" }];
  return { start_sequence: start, sequence: start, message: { id: `m${start}`, role, parts } };
}

describe("timeline view", () => {
  it("puts the boundary at the newest completed compaction only", () => {
    const entries = [
      entry(1, "user"),
      entry(2, "system", "completed"),
      entry(3, "user"),
      entry(4, "system", "failed"),
      entry(5, "system", "completed"),
      entry(6, "system", "in_progress"),
    ];
    expect(summaryBoundaryIndex(entries)).toBe(4);
    expect(summaryBoundaryIndex(entries.slice(0, 1))).toBe(-1);
  });

  it("labels the first of consecutive agent entries only", () => {
    const entries = [
      entry(1, "user"),
      entry(2, "assistant"),
      entry(3, "assistant"),
      entry(4, "system"),
      entry(5, "assistant"),
    ];
    expect(entries.map((_, index) => showsSpeaker(entries, index))).toEqual([
      true,
      true,
      false,
      true,
      true,
    ]);
  });
});

describe("indexOfStartSequence", () => {
  it("finds an entry by its start sequence, or says -1", () => {
    const entries = [entry(2, "user"), entry(5, "assistant"), entry(9, "assistant")];
    expect(entries.map((item) => indexOfStartSequence(entries, item.start_sequence))).toEqual([
      0, 1, 2,
    ]);
    expect(indexOfStartSequence(entries, 1)).toBe(-1);
    expect(indexOfStartSequence(entries, 6)).toBe(-1);
    expect(indexOfStartSequence(entries, 10)).toBe(-1);
    expect(indexOfStartSequence([], 1)).toBe(-1);
  });
});
