import { describe, expect, it } from "vitest";
import type { CompactionMarkerView } from "../../api/usage-queries";
import type { Turn } from "../../contract/usage";
import { CHART, deriveChartGeometry, labelWidth, TABLE_ROWS_SHOWN } from "./context-chart-geometry";

const AT = "2026-11-30T08:00:00.000Z";

function turn(
  sequence: number,
  context_used?: number,
  context_size = 200_000,
  reported: { sequence?: number; at?: string } = {},
): Turn {
  return {
    turn_id: `t${sequence}`,
    sequence,
    usage: {
      timestamp: reported.at ?? AT,
      ...(context_used !== undefined ? { context_used, context_size } : {}),
      ...(reported.sequence !== undefined ? { context_sequence: reported.sequence } : {}),
    },
  };
}

/** The y values the line passes through, left to right. */
function pathYs(path: string): number[] {
  return [...path.matchAll(/[ML][\d.]+ ([\d.]+)/g)].map((match) => Number(match[1]));
}

function marker(sequence: number, extra: Partial<CompactionMarkerView> = {}): CompactionMarkerView {
  return {
    turn_id: "",
    sequence,
    at: AT,
    compaction_id: `c${sequence}`,
    trigger: "agent",
    status: "completed",
    ...extra,
  };
}

const baseline = CHART.height - CHART.bottom;

describe("deriveChartGeometry", () => {
  it("has nothing to draw without readings or compactions", () => {
    const geometry = deriveChartGeometry({ turns: [turn(1)], compactions: [] });
    expect(geometry.points).toEqual([]);
    expect(geometry.drops).toEqual([]);
    expect(geometry.path).toBe("");
    expect(geometry.summary).toBe("No context readings yet.");
  });

  it("scales readings against the window, which is the top line", () => {
    const geometry = deriveChartGeometry({
      turns: [turn(1, 50_000), turn(5, 100_000), turn(9, 200_000)],
      compactions: [],
    });
    expect(geometry.window).toEqual({ y: CHART.top, size: 200_000, label: "200K" });
    expect(geometry.points.map((point) => point.x)).toEqual([
      CHART.left,
      (CHART.left + CHART.width - CHART.right) / 2,
      CHART.width - CHART.right,
    ]);
    const span = baseline - CHART.top;
    expect(geometry.points.map((point) => point.y)).toEqual([
      baseline - span / 4,
      baseline - span / 2,
      CHART.top,
    ]);
    expect(geometry.path.startsWith(`M${CHART.left} `)).toBe(true);
    expect(geometry.path.match(/L/g)).toHaveLength(2);
    expect(geometry.points[1]?.label).toBe("Turn 2: 100K of 200K");
    expect(geometry.xLabels).toEqual([
      { text: "Turn 1", x: CHART.left, anchor: "start" },
      { text: "Turn 2", x: (CHART.left + CHART.width - CHART.right) / 2, anchor: "middle" },
      { text: "Turn 3", x: CHART.width - CHART.right, anchor: "end" },
    ]);
    // The window's own label (drawn with its dashed line) takes the top tick's place.
    expect(geometry.yTicks.map((tick) => tick.label)).toEqual(["0", "100K"]);
  });

  it("draws a drop from before to after at each compaction, in the line", () => {
    const geometry = deriveChartGeometry({
      turns: [turn(1, 180_000), turn(10, 42_000)],
      compactions: [
        marker(5, { context_used: 180_000, context_after: { used: 42_000, sequence: 12 } }),
      ],
    });
    const [drop] = geometry.drops;
    expect(drop?.label).toBe("The agent compacted on its own · completed · 180K → 42K");
    expect(drop?.yBefore).toBe(geometry.points[0]?.y);
    expect(drop?.yAfter).toBe(geometry.points[1]?.y);
    expect(drop?.x).toBe((CHART.left + CHART.width - CHART.right) / 2);
    // M first point, L to before, L to after, L to the next point: one unbroken line.
    expect(geometry.path.match(/[ML]/g)).toEqual(["M", "L", "L", "L"]);
    expect(geometry.summary).toBe(
      "Context over time: 2 turn readings, 1 compaction. Latest 42K of 200K; peak 180K. Window 200K.",
    );
    expect(geometry.rows.map((row) => row.name)).toEqual(["Turn 1", "Compaction", "Turn 2"]);
  });

  it("puts a turn's reading after a compaction inside it when it was reported after it", () => {
    const geometry = deriveChartGeometry({
      turns: [
        turn(1, 180_000, 200_000, { sequence: 4 }),
        turn(10, 42_000, 200_000, { sequence: 15 }),
        turn(30, 50_000, 200_000, { sequence: 33 }),
      ],
      compactions: [
        marker(12, {
          trigger: "requested",
          context_used: 180_000,
          context_after: { used: 42_000, sequence: 15 },
        }),
      ],
    });
    expect(geometry.rows.map((row) => row.name)).toEqual([
      "Turn 1",
      "Compaction",
      "Turn 2",
      "Turn 3",
    ]);
  });

  // The welcome session as the reference daemon stores it: Turn 4 fills to 140K, Turn 5 is
  // the compaction (28K reported in it), Turn 6 reads 28.7K.
  const welcome = (bySequence: boolean) => {
    const at = (second: number) => `2026-11-30T08:00:${String(second).padStart(2, "0")}.000Z`;
    const reading = (sequence: number, second: number) =>
      bySequence ? { sequence, at: at(second) } : { at: at(second) };
    return {
      turns: [
        turn(4, 1_025, 200_000, reading(30, 1)),
        turn(32, 1_727, 200_000, reading(42, 2)),
        turn(44, 2_409, 200_000, reading(56, 3)),
        turn(58, 140_000, 200_000, reading(86, 4)),
        turn(88, 28_000, 200_000, reading(98, 7)),
        turn(100, 28_693, 200_000, reading(109, 8)),
      ],
      compactions: [
        marker(97, {
          at: at(6),
          trigger: "requested" as const,
          context_used: 140_000,
          context_size: 200_000,
          context_after: { used: 28_000, size: 200_000, sequence: 98 },
        }),
      ],
    };
  };

  it.each([
    ["ledger sequences", true],
    ["report times", false],
  ])(
    "when the welcome session is drawn by %s, then the drop sits between 140K and 28K with no climb back",
    (_how, bySequence) => {
      const geometry = deriveChartGeometry(welcome(bySequence));
      expect(geometry.rows.map((row) => row.name)).toEqual([
        "Turn 1",
        "Turn 2",
        "Turn 3",
        "Turn 4",
        "Compaction",
        "Turn 5",
        "Turn 6",
      ]);
      const ys = pathYs(geometry.path);
      const y140 = geometry.points[3]?.y as number;
      const y28 = geometry.points[4]?.y as number;
      // After the drop the line never goes back up to 140K: Turn 4, its before, its after, Turn 5, Turn 6.
      expect(ys.slice(3)).toEqual([y140, y140, y28, y28, geometry.points[5]?.y]);
      expect(geometry.drops[0]?.label).toBe("Compaction was requested · completed · 140K → 28K");
    },
  );

  it("when the agent compacts between turns, then the earlier turn's figure stays before the drop (no climb)", () => {
    // `/demo idle`: Turn 1 reports 150K at row 20 and ends; the compaction (row 25) and its
    // 30K reading (row 27) come between turns, before Turn 2 starts at row 30.
    const geometry = deriveChartGeometry({
      turns: [
        turn(10, 150_000, 200_000, { sequence: 20 }),
        turn(30, 31_000, 200_000, { sequence: 38 }),
      ],
      compactions: [
        marker(25, { context_used: 150_000, context_after: { used: 30_000, sequence: 27 } }),
      ],
    });
    expect(geometry.rows.map((row) => row.name)).toEqual(["Turn 1", "Compaction", "Turn 2"]);
    const [first, second] = geometry.points;
    const y30 = geometry.drops[0]?.yAfter;
    expect(pathYs(geometry.path)).toEqual([first?.y, first?.y, y30, second?.y]);
  });

  it("keeps a turn's reading before a compaction in it that has no reading after it yet", () => {
    const geometry = deriveChartGeometry({
      turns: [turn(1, 180_000), turn(10, 190_000)],
      compactions: [marker(12, { status: "in_progress", context_used: 190_000 })],
    });
    expect(geometry.rows.map((row) => row.name)).toEqual(["Turn 1", "Turn 2", "Compaction"]);
    expect(geometry.drops[0]?.yAfter).toBeUndefined();
    expect(geometry.path.endsWith(`L${geometry.drops[0]?.x} ${geometry.drops[0]?.yBefore}`)).toBe(
      true,
    );
  });

  it("breaks the line where a compaction's figures are unknown", () => {
    const geometry = deriveChartGeometry({
      turns: [turn(1, 100_000), turn(10, 20_000)],
      compactions: [marker(5)],
    });
    expect(geometry.drops[0]?.yBefore).toBeUndefined();
    expect(geometry.path.match(/[ML]/g)).toEqual(["M", "M"]);
  });

  it("names the last turn under its point when a compaction, not a turn, ends the plot", () => {
    const geometry = deriveChartGeometry({
      turns: [turn(1, 50_000), turn(5, 100_000)],
      compactions: [
        {
          turn_id: "",
          sequence: 8,
          at: AT,
          compaction_id: "cmp-1",
          trigger: "agent",
          status: "failed",
          context_used: 100_000,
        },
      ],
    });
    const middle = (CHART.left + CHART.width - CHART.right) / 2;
    expect(geometry.xLabels.at(-1)).toEqual({ text: "Turn 2", x: middle, anchor: "middle" });
    // A failed compaction is a ✕ where it started: no drop, no arrow, the line left alone.
    expect(geometry.drops[0]).toMatchObject({ incomplete: true, yAfter: undefined });
    expect(geometry.drops[0]?.label).toBe("The agent compacted on its own · failed · from 100K");
  });

  it("without a known window, scales to the readings with headroom and draws no window line", () => {
    const geometry = deriveChartGeometry({
      turns: [{ turn_id: "a", sequence: 1, usage: { timestamp: AT, context_used: 1000 } }],
      compactions: [],
    });
    expect(geometry.window).toBeUndefined();
    expect(geometry.yMax).toBe(1200); // 1,000 with headroom, rounded up to a round top
    const middle = (CHART.left + CHART.width - CHART.right) / 2;
    expect(geometry.points[0]?.x).toBe(middle);
    // A lone turn is named under its own point, not at the plot's left edge.
    expect(geometry.xLabels).toEqual([{ text: "Turn 1", x: middle, anchor: "middle" }]);
    expect(geometry.summary).toBe(
      "Context over time: 1 turn reading, 0 compactions. Latest 1K; peak 1K.",
    );
  });
});

describe("the text alternative", () => {
  it("when there are more points than the table shows, then it keeps the newest and counts the rest", () => {
    const turns = Array.from({ length: TABLE_ROWS_SHOWN + 20 }, (_, index) => ({
      turn_id: `t${index + 1}`,
      sequence: (index + 1) * 10,
      usage: {
        timestamp: "2026-11-30T08:00:00.000Z",
        context_used: 1000 + index,
        context_size: 200_000,
      },
    }));
    const geometry = deriveChartGeometry({ turns, compactions: [] });
    expect(geometry.rows).toHaveLength(TABLE_ROWS_SHOWN);
    expect(geometry.hiddenRows).toBe(20);
    expect(geometry.rows.at(-1)?.name).toBe(`Turn ${TABLE_ROWS_SHOWN + 20}`);
    expect(geometry.rows[0]?.name).toBe("Turn 21");
  });
});

describe("a long session's chart", () => {
  it("when there are 50 compactions, then turn labels never collide and the newest is named", () => {
    const turns: Turn[] = [];
    const compactions: CompactionMarkerView[] = [];
    for (let index = 0; index < 50; index += 1) {
      turns.push(turn(index * 10 + 1, 150_000));
      compactions.push(
        marker(index * 10 + 5, {
          context_used: 150_000,
          context_after: { used: 30_000, sequence: index * 10 + 6 },
          status: index % 7 === 3 ? "failed" : "completed",
        }),
      );
    }
    const geometry = deriveChartGeometry({ turns, compactions });
    // Each name's text, by its anchor, ends before the next one starts.
    const spans = geometry.xLabels.map((label) => {
      const width = labelWidth(label.text);
      const left =
        label.anchor === "start"
          ? label.x
          : label.anchor === "end"
            ? label.x - width
            : label.x - width / 2;
      return [left, left + width] as const;
    });
    for (let index = 1; index < spans.length; index += 1) {
      expect(spans[index]![0]).toBeGreaterThan(spans[index - 1]![1]);
    }
    expect(geometry.xLabels.length).toBeGreaterThanOrEqual(3);
    expect(geometry.xLabels.at(-1)?.text).toBe("Turn 50");
    expect(geometry.drops.filter((drop) => drop.incomplete)).toHaveLength(7);
  });

  it("when the person typed the command, then the drop's label says so", () => {
    const geometry = deriveChartGeometry(
      { turns: [turn(1, 100_000)], compactions: [marker(5, { context_used: 100_000 })] },
      { c5: { typed: "/compact" } },
    );
    expect(geometry.drops[0]?.label).toBe("You typed /compact · completed · 100K before");
  });
});
