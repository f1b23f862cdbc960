import { describe, expect, it } from "vitest";
import type { CompactionMarkerView, UsageTurnsView } from "../../api/usage-queries";
import { withTranscriptStates } from "./marker-states";
import { describeMarker } from "./turns-list-view";

const AT = "2026-11-30T08:00:00.000Z";

function marker(id: string, status: string): CompactionMarkerView {
  return {
    turn_id: "t1",
    sequence: 5,
    at: AT,
    compaction_id: id,
    trigger: "requested",
    status,
    context_used: 8200,
  };
}

const view = (...compactions: CompactionMarkerView[]): UsageTurnsView => ({
  turns: [],
  compactions,
});

describe("the turns list follows the transcript's word for each compaction", () => {
  it("when the row already says compacted but the markers were read before, then the list says completed", () => {
    const levelled = withTranscriptStates(view(marker("c1", "in_progress")), {
      c1: { state: "completed" },
    });
    expect(levelled.compactions[0]?.status).toBe("completed");
    expect(describeMarker(levelled.compactions[0] as CompactionMarkerView)).not.toMatch(
      /in progress/,
    );
  });

  it("when the agent crashed mid-compaction, then the list says interrupted, as the row does", () => {
    const levelled = withTranscriptStates(view(marker("c1", "cancelled")), {
      c1: { state: "interrupted" },
    });
    expect(describeMarker(levelled.compactions[0] as CompactionMarkerView)).toBe(
      "Compaction was requested · interrupted · from 8.2K",
    );
  });

  it("keeps a marker's terminal status over a transcript that has not caught up", () => {
    const data = view(marker("c1", "failed"));
    expect(withTranscriptStates(data, { c1: { state: "in_progress" } })).toBe(data);
  });

  it("keeps the same object when nothing changes (no re-render of the chart)", () => {
    const data = view(marker("c1", "completed"), marker("c2", "in_progress"));
    expect(withTranscriptStates(data, { c1: { state: "completed" } })).toBe(data);
    expect(withTranscriptStates(data, undefined)).toBe(data);
  });
});
