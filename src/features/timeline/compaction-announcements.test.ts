import { describe, expect, it } from "vitest";
import type { Entry } from "../../contract/transcript";
import { collectAnnouncements } from "./compaction-announcements";

function compaction(id: string, status: string, error?: string): Entry {
  return {
    start_sequence: 1,
    sequence: 1,
    message: {
      id,
      role: "system",
      parts: [
        {
          type: "data-compozy-compaction",
          id,
          data: {
            kind: "compaction",
            compaction_id: id,
            status,
            started_at: "2026-11-30T08:42:00Z",
            ...(error ? { error } : {}),
          },
        },
      ],
    },
  };
}

describe("collectAnnouncements", () => {
  it("announces the move to a terminal status once, and nothing for rows first seen finished", () => {
    const seen = new Map<string, string>();
    expect(
      collectAnnouncements(seen, [compaction("a", "completed"), compaction("b", "in_progress")]),
    ).toEqual([]);
    expect(collectAnnouncements(seen, [compaction("b", "_paused")])).toEqual([]);
    expect(collectAnnouncements(seen, [compaction("b", "failed", "boom")])).toEqual([
      "Context compaction failed — boom",
    ]);
    expect(collectAnnouncements(seen, [compaction("b", "failed", "boom")])).toEqual([]);
  });
});
