import { describe, expect, it } from "vitest";
import type { UsageTurnsView } from "../../api/usage-queries";
import { labelBoxes, markerBoxes, overlaps } from "./context-chart-boxes";
import { CHART, deriveChartGeometry } from "./context-chart-geometry";
import { niceCeil, yScaleOf } from "./context-chart-scale";

const at = (index: number) => new Date(Date.UTC(2026, 10, 30, 8) + index * 1000).toISOString();

/** Turns with the given readings, one report after another (ledger sequences 10, 20, …). */
function session(readings: readonly number[], size = 200_000): UsageTurnsView {
  return {
    turns: readings.map((used, index) => ({
      turn_id: `t${index + 1}`,
      sequence: index * 10 + 1,
      usage: {
        context_used: used,
        context_size: size,
        timestamp: at(index),
        context_sequence: index * 10 + 5,
      },
    })),
    compactions: [],
  };
}

describe("the chart's y scale", () => {
  it("rounds the top up to a round figure above the peak", () => {
    expect(niceCeil(1100)).toBe(1200);
    expect(niceCeil(3_300)).toBe(4_000);
    expect(niceCeil(154_000)).toBe(200_000);
    expect(niceCeil(2_200)).toBe(3_000); // not 2.5K, whose half would read "1.3K"
    expect(niceCeil(0)).toBe(1);
    expect(niceCeil(Number.NaN)).toBe(1);
  });

  it("when a session is a few thousand tokens of a 200K window, then the plot is scaled to them and the window is left out, said in words", () => {
    const chart = deriveChartGeometry(session([1_025, 1_727, 2_409]));
    expect(chart.yMax).toBe(3_000);
    expect(chart.window).toBeUndefined();
    expect(chart.windowNote).toBe("Scaled to the readings; the 200K window is above the top.");
    expect(chart.yTicks.map((tick) => tick.label)).toEqual(["0", "1.5K", "3K"]);
    // The peak is near the top, not a line on the floor.
    const peak = chart.points.at(-1)?.y as number;
    expect(CHART.height - CHART.bottom - peak).toBeGreaterThan(
      0.7 * (CHART.height - CHART.bottom - CHART.top),
    );
    // Same summary as before: the window is still named for screen readers.
    expect(chart.summary).toContain("Window 200K.");
  });

  it("when the readings reach past half the window, then the window is the top, drawn as the reference line", () => {
    const chart = deriveChartGeometry(session([60_000, 140_000]));
    expect(chart.yMax).toBe(200_000);
    expect(chart.window).toEqual({ y: CHART.top, size: 200_000, label: "200K" });
    expect(chart.windowNote).toBeUndefined();
    // The window's label takes the top tick's place instead of printing over it.
    expect(chart.yTicks.map((tick) => tick.label)).toEqual(["0", "100K"]);
  });

  it("when a reading passes the window, then the scale goes above it and the window line sits inside", () => {
    const scale = yScaleOf([230_000], 200_000);
    expect(scale).toEqual({ yMax: 300_000, windowInRange: true });
    const chart = deriveChartGeometry(session([230_000]));
    expect(chart.window?.y).toBeGreaterThan(CHART.top);
    for (const tick of chart.yTicks) {
      expect(Math.abs(tick.y - (chart.window?.y as number))).toBeGreaterThanOrEqual(12);
    }
  });

  it("without a window, then the scale is the readings' with headroom and there is no note", () => {
    expect(yScaleOf([1_000], undefined)).toEqual({ yMax: 1_200, windowInRange: false });
    const chart = deriveChartGeometry({
      turns: [{ turn_id: "a", sequence: 1, usage: { timestamp: at(0), context_used: 800 } }],
      compactions: [],
    });
    expect(chart.windowNote).toBeUndefined();
  });
});

describe("the chart's layout", () => {
  const twoInARow: UsageTurnsView = {
    turns: [
      {
        turn_id: "a",
        sequence: 1,
        usage: { context_used: 726, context_size: 200_000, timestamp: at(1), context_sequence: 5 },
      },
      {
        turn_id: "b",
        sequence: 6,
        usage: { context_used: 145, context_size: 200_000, timestamp: at(3), context_sequence: 12 },
      },
      {
        turn_id: "c",
        sequence: 13,
        usage: { context_used: 29, context_size: 200_000, timestamp: at(5), context_sequence: 19 },
      },
      {
        turn_id: "d",
        sequence: 20,
        usage: { context_used: 643, context_size: 200_000, timestamp: at(6), context_sequence: 25 },
      },
    ],
    compactions: [
      {
        turn_id: "b",
        sequence: 10,
        at: at(2),
        compaction_id: "c1",
        trigger: "requested",
        status: "completed",
        context_used: 726,
        context_size: 200_000,
        context_after: { used: 145, sequence: 12 },
      },
      {
        turn_id: "c",
        sequence: 17,
        at: at(4),
        compaction_id: "c2",
        trigger: "requested",
        status: "completed",
        context_used: 145,
        context_size: 200_000,
        context_after: { used: 29, sequence: 19 },
      },
    ],
  };
  const long = session(
    Array.from({ length: 60 }, (_, index) => 2_000 + ((index * 7_919) % 150_000)),
  );
  const failedFirst: UsageTurnsView = {
    ...session([90_000, 95_000]),
    compactions: [
      {
        turn_id: "t1",
        sequence: 0,
        at: at(0),
        compaction_id: "f",
        trigger: "agent",
        status: "failed",
        context_used: 90_000,
      },
    ],
  };

  it.each([
    ["a tiny session", session([0, 12, 30])],
    ["two compactions in a row", twoInARow],
    ["a session near its window", session([150_000, 199_000, 200_000])],
    ["a session past its window", session([230_000, 10])],
    ["sixty turns", long],
    ["a failed compaction at the left edge", failedFirst],
  ])(
    "when the chart draws %s, then no marker covers a label and no two labels touch",
    (_name, data) => {
      const chart = deriveChartGeometry(data);
      const labels = labelBoxes(chart);
      const markers = markerBoxes(chart);
      expect(labels.length).toBeGreaterThan(1);
      for (const marker of markers) {
        for (const label of labels) {
          expect(overlaps(marker, label), `${marker.what} over "${label.what}"`).toBe(false);
        }
      }
      labels.forEach((label, index) => {
        for (const other of labels.slice(index + 1)) {
          expect(overlaps(label, other), `"${label.what}" and "${other.what}"`).toBe(false);
        }
      });
    },
  );

  it("when two compactions run in a row, then each drop is drawn from its own before to its own after", () => {
    const chart = deriveChartGeometry(twoInARow);
    expect(chart.rows.map((row) => row.name)).toEqual([
      "Turn 1",
      "Compaction",
      "Turn 2",
      "Compaction",
      "Turn 3",
      "Turn 4",
    ]);
    expect(chart.rows.filter((row) => row.name === "Compaction").map((row) => row.value)).toEqual([
      "Compaction was requested · completed · 726 → 145",
      "Compaction was requested · completed · 145 → 29",
    ]);
    // Scaled to 726, the drops are visible heights, not a line on the floor.
    const [first] = chart.drops;
    expect((first?.yAfter as number) - (first?.yBefore as number)).toBeGreaterThan(40);
  });
});
