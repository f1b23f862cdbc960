import { describe, expect, it } from "vitest";
import type { CompactionMarkerView } from "../../api/usage-queries";
import type { ContextReading, SessionUsage } from "../../contract/usage";
import {
  deriveMeterView,
  METER_COPY,
  type MeterView,
  readingPredates,
  type UsageQueryState,
} from "./context-meter-view";

const AT = "2026-11-30T08:00:00.000Z";

function usage(context: ContextReading): UsageQueryState {
  const data: SessionUsage = { context, turn_count: 3 };
  return { status: "success", data };
}

function marker(
  sequence: number,
  status: string,
  extra: Partial<CompactionMarkerView> = {},
): CompactionMarkerView {
  return {
    turn_id: "",
    sequence,
    at: AT,
    compaction_id: `c${sequence}`,
    trigger: "agent",
    status,
    ...extra,
  };
}

/** The reading is at sequence 20 in every case below. */
const CONTEXTS = {
  reportedWithSize: {
    state: "reported",
    used: 89_700,
    size: 256_000,
    ratio: 89_700 / 256_000,
    size_source: "agent",
    sequence: 20,
  },
  reportedWithoutSize: { state: "reported", used: 89_700, sequence: 20 },
  estimatedSize: {
    state: "estimated_size",
    used: 89_700,
    size: 256_000,
    ratio: 89_700 / 256_000,
    size_source: "catalog",
    sequence: 20,
  },
  unknownClearedBy: { state: "unknown", cleared_by: { compaction_id: "c10", sequence: 10 } },
  unknownNeverReported: { state: "unknown" },
  unavailable: { state: "unavailable" },
} satisfies Record<string, ContextReading>;

const HISTORIES = {
  notLoaded: undefined,
  none: [],
  completedBefore: [marker(10, "completed", { context_used: 180_000 })],
  completedAfter: [marker(30, "completed", { context_used: 89_700 })],
  failedAfter: [marker(30, "failed")],
  cancelledAfter: [marker(30, "cancelled")],
  completedAfterThenReadingAfterIt: [
    marker(18, "completed", { context_after: { used: 89_700, size: 256_000, sequence: 20 } }),
  ],
  correctedAfterReading: [
    // first terminal at 15, reading at 20 is its context_after, a later correction at 25
    marker(25, "completed", { context_after: { used: 89_700, sequence: 20 } }),
  ],
  inProgressAfter: [marker(30, "in_progress")],
  pausedAfter: [marker(30, "_paused")],
  inProgressBefore: [marker(15, "in_progress")],
  completedAndInProgressAfter: [marker(25, "completed"), marker(30, "in_progress")],
} satisfies Record<string, CompactionMarkerView[] | undefined>;

type ContextName = keyof typeof CONTEXTS;
type HistoryName = keyof typeof HISTORIES;

const STALE_HISTORIES: HistoryName[] = [
  "completedAfter",
  "failedAfter",
  "cancelledAfter",
  "completedAndInProgressAfter",
];
const PENDING_HISTORIES: HistoryName[] = ["inProgressAfter", "pausedAfter"];
const READINGS: ContextName[] = ["reportedWithSize", "reportedWithoutSize", "estimatedSize"];
const HAS_TERMINAL: HistoryName[] = [
  "completedBefore",
  "completedAfterThenReadingAfterIt",
  "correctedAfterReading",
  ...STALE_HISTORIES,
];

function expectedKind(context: ContextName, history: HistoryName): MeterView["kind"] {
  if (context === "unavailable") return "unavailable";
  if (!READINGS.includes(context)) return "unknown";
  if (STALE_HISTORIES.includes(history)) return "unknown";
  if (PENDING_HISTORIES.includes(history)) return "compacting";
  return "reading";
}

function expectedDetail(context: ContextName, history: HistoryName): string | undefined {
  const kind = expectedKind(context, history);
  if (kind !== "unknown") return undefined;
  if (context === "unknownNeverReported" && !HAS_TERMINAL.includes(history)) {
    return METER_COPY.neverReported;
  }
  // The sentence follows how the compaction that took the figure away ended.
  if (history === "failedAfter") return METER_COPY.compactionFailed;
  if (history === "cancelledAfter") return METER_COPY.compactionCancelled;
  return METER_COPY.compacted;
}

const visibleText = (view: MeterView) => `${view.headline} ${view.detail ?? ""}`;

describe("deriveMeterView over every context state × marker history", () => {
  for (const contextName of Object.keys(CONTEXTS) as ContextName[]) {
    for (const historyName of Object.keys(HISTORIES) as HistoryName[]) {
      it(`${contextName} with ${historyName} markers`, () => {
        const view = deriveMeterView(usage(CONTEXTS[contextName]), HISTORIES[historyName]);
        const kind = expectedKind(contextName, historyName);
        expect(view.kind).toBe(kind);
        const detail = expectedDetail(contextName, historyName);
        if (detail) expect(view.detail).toBe(detail);

        // The guarantee: a figure is current only in the "reading" kind; anywhere else
        // there is no aria value, no bar fill, and the text never offers it as current.
        if (kind !== "reading") {
          expect(view.valueNow).toBeUndefined();
          expect(view.fill).toBeUndefined();
          expect(view.headline).not.toMatch(/89\.7K|35%/);
          expect(view.valueText).not.toMatch(/^\d/);
        }
        if (kind === "compacting") expect(view.detail).toMatch(/^Before it: 89\.7K/);
        if (kind === "unknown") expect(visibleText(view)).not.toContain("89.7K");
      });
    }
  }
});

describe("deriveMeterView, each state's words", () => {
  it("reported with a size: bar, percent and pair", () => {
    const view = deriveMeterView(usage(CONTEXTS.reportedWithSize), []);
    expect(view).toEqual({
      kind: "reading",
      headline: "35%",
      detail: "89.7K / 256K",
      fill: 89_700 / 256_000,
      estimatedSize: false,
      valueNow: 89_700,
      valueMax: 256_000,
      valueText: "35% used, 89.7K of 256K tokens",
    });
  });

  it("reported without a size: the count used and no fill", () => {
    const view = deriveMeterView(usage(CONTEXTS.reportedWithoutSize), []);
    expect(view.headline).toBe("89.7K used");
    expect(view.detail).toBeUndefined();
    expect(view.fill).toBeUndefined();
    expect(view.valueMax).toBeUndefined();
    expect(view.valueText).toBe("89.7K tokens used, window size unknown");
  });

  it("a size of zero counts as no size", () => {
    const view = deriveMeterView(usage({ state: "reported", used: 950, size: 0 }), []);
    expect(view.headline).toBe("950 used");
  });

  it("estimated size: as reported, flagged", () => {
    const view = deriveMeterView(usage(CONTEXTS.estimatedSize), []);
    expect(view.headline).toBe("35%");
    expect(view.estimatedSize).toBe(true);
    expect(view.valueText).toBe("35% used, 89.7K of 256K tokens (estimated size)");
  });

  it("uses the daemon's ratio, computes one without it, and caps the fill at full", () => {
    expect(
      deriveMeterView(usage({ state: "reported", used: 6_400, size: 100_000 }), []).headline,
    ).toBe("6.4%");
    const over = deriveMeterView(
      usage({ state: "reported", used: 300, size: 200, ratio: 1.5 }),
      [],
    );
    expect(over.headline).toBe("150%");
    expect(over.fill).toBe(1);
  });

  it("unknown with cleared_by / without", () => {
    expect(deriveMeterView(usage(CONTEXTS.unknownClearedBy), []).valueText).toBe(
      "Context usage unknown. Context compacted. Waiting for the agent's next usage report.",
    );
    expect(deriveMeterView(usage(CONTEXTS.unknownNeverReported), []).detail).toBe(
      "This agent hasn't reported context usage.",
    );
  });

  it("a reported state that carries no count is unknown", () => {
    expect(deriveMeterView(usage({ state: "reported" }), undefined).kind).toBe("unknown");
  });

  it("an in-progress compaction after the reading shows the figure only as 'before it'", () => {
    const view = deriveMeterView(usage(CONTEXTS.reportedWithSize), HISTORIES.inProgressAfter);
    expect(view.headline).toBe("Compacting context…");
    expect(view.detail).toBe("Before it: 89.7K / 256K");
    const paused = deriveMeterView(usage(CONTEXTS.reportedWithoutSize), HISTORIES.pausedAfter);
    expect(paused.headline).toBe("Compaction _paused");
    expect(paused.detail).toBe("Before it: 89.7K used");
  });
});

describe("deriveMeterView, query states", () => {
  const withData = usage(CONTEXTS.reportedWithSize);
  for (const contextName of Object.keys(CONTEXTS) as ContextName[]) {
    for (const historyName of Object.keys(HISTORIES) as HistoryName[]) {
      it(`pending and error win over ${contextName} / ${historyName}`, () => {
        const data = usage(CONTEXTS[contextName]).data;
        const markers = HISTORIES[historyName];
        expect(deriveMeterView({ status: "pending", data }, markers).headline).toBe(
          "Loading context",
        );
        const failed = deriveMeterView(
          { status: "error", data, error: new Error("The daemon answered 500.") },
          markers,
        );
        expect(failed.kind).toBe("error");
        expect(failed.headline).toBe("Usage unavailable");
        expect(failed.valueNow).toBeUndefined();
      });
    }
  }

  it("a failed re-read hides even a cached figure", () => {
    const view = deriveMeterView({ ...withData, status: "error", error: null }, []);
    expect(view.valueText).toBe("Usage unavailable");
  });

  it("success without data is still loading", () => {
    expect(deriveMeterView({ status: "success" }, []).kind).toBe("loading");
  });
});

describe("readingPredates", () => {
  it("compares sequences, and a reading at or after context_after is newer", () => {
    expect(readingPredates({ state: "reported", sequence: 5 }, marker(9, "completed"))).toBe(true);
    expect(readingPredates({ state: "reported", sequence: 9 }, marker(9, "completed"))).toBe(false);
    expect(
      readingPredates(
        { state: "reported", sequence: 12 },
        marker(20, "completed", { context_after: { used: 1, sequence: 12 } }),
      ),
    ).toBe(false);
  });

  it("falls back to timestamps, then to the daemon's word", () => {
    const later = marker(9, "completed", { at: "2026-11-30T09:00:00.000Z" });
    expect(readingPredates({ state: "reported", reported_at: AT }, later)).toBe(true);
    expect(
      readingPredates({ state: "reported", reported_at: "2026-11-30T10:00:00.000Z" }, later),
    ).toBe(false);
    expect(readingPredates({ state: "reported" }, later)).toBe(false);
  });
});
