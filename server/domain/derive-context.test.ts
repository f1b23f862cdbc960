import { describe, expect, it } from "vitest";
import { ContextReading } from "../../src/contract/usage";
import { deriveContext, type UsageReading } from "./derive-context";

const reading = (sequence: number, used: number, size: number | null): UsageReading => ({
  sequence,
  turn_id: "turn-1",
  created_at: "2026-01-01T00:00:00.000Z",
  context_used: used,
  context_size: size,
});

describe("deriveContext (docs/ledger.md §5)", () => {
  it.each([
    ["there is no reading and no boundary", undefined, undefined, undefined, { state: "unknown" }],
    [
      "the reading is older than the boundary",
      reading(3, 500, 1000),
      { compaction_id: "c1", sequence: 7 },
      undefined,
      { state: "unknown", cleared_by: { compaction_id: "c1", sequence: 7 } },
    ],
    [
      "there is a boundary but no reading",
      undefined,
      { compaction_id: "c1", sequence: 7 },
      undefined,
      { state: "unknown", cleared_by: { compaction_id: "c1", sequence: 7 } },
    ],
    [
      "the reading is newer than the boundary",
      reading(9, 250, 1000),
      { compaction_id: "c1", sequence: 7 },
      undefined,
      {
        state: "reported",
        used: 250,
        size: 1000,
        ratio: 0.25,
        size_source: "agent",
        sequence: 9,
        reported_turn_id: "turn-1",
        reported_at: "2026-01-01T00:00:00.000Z",
      },
    ],
    [
      "the reading has no size and a window is configured",
      reading(2, 100, 0),
      undefined,
      400,
      {
        state: "estimated_size",
        used: 100,
        size: 400,
        ratio: 0.25,
        size_source: "catalog",
        sequence: 2,
        reported_turn_id: "turn-1",
        reported_at: "2026-01-01T00:00:00.000Z",
      },
    ],
    [
      "the reading has no size and no window is configured",
      reading(2, 100, 0),
      undefined,
      undefined,
      {
        state: "reported",
        used: 100,
        sequence: 2,
        reported_turn_id: "turn-1",
        reported_at: "2026-01-01T00:00:00.000Z",
      },
    ],
  ])(
    "when %s, then the reading is derived as specified",
    (_name, usage, boundary, window, expected) => {
      const context = deriveContext(usage, boundary, window);
      expect(context).toStrictEqual(expected);
      expect(ContextReading.parse(context)).toStrictEqual(expected);
    },
  );
});
