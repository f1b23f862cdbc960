// The context-over-time chart as numbers: one slot per turn reading and per compaction, in
// the order they happened, scaled into a fixed viewBox. The component only draws this.

import type { CompactionMarkerView, UsageTurnsView } from "../../api/usage-queries";
import {
  isBefore,
  markerReportKey,
  type ReportKey,
  type Turn,
  turnReportKey,
} from "../../contract/usage";
import { formatTokens } from "../../lib/format-tokens";
import { windowNote, yScaleOf, yTickValues } from "./context-chart-scale";
import {
  type CompactionRequests,
  describeMarker,
  didNotComplete,
  turnNumbers,
} from "./turns-list-view";

export const CHART = { width: 320, height: 150, left: 40, right: 10, top: 14, bottom: 22 };

/** The labels' font size in viewBox units; two y labels closer than this would touch. */
export const LABEL_SIZE = 11;
const Y_LABEL_MIN_GAP = LABEL_SIZE + 1;
/** A reading's marker at its largest (hovered); y labels end this far left of the plot. */
export const MARKER_RADIUS = 4.5;
export const Y_LABEL_GAP = 6;
/** Turn names' baseline below the plot's floor. */
export const X_LABEL_OFFSET = 16;

/**
 * A screen-reader table of thousands of turns costs a long task to render and lays out
 * ~10,000 hidden nodes, while the turns list already offers every turn on demand.
 */
export const TABLE_ROWS_SHOWN = 100;

export type ChartPoint = {
  key: string;
  x: number;
  y: number;
  used: number;
  name: string;
  value: string;
  label: string;
};

export type ChartDrop = {
  key: string;
  x: number;
  /** Known ends of the drop; a missing one is drawn as a dashed guide instead. */
  yBefore: number | undefined;
  yAfter: number | undefined;
  label: string;
  /** Failed or cancelled: a ✕ where it started, no drop and no arrow. */
  incomplete: boolean;
};

/** A turn's name under its own point (not under the plot's edge, which may be a compaction). */
type ChartAxisLabel = { text: string; x: number; anchor: "start" | "middle" | "end" };

export type ChartGeometry = {
  points: ChartPoint[];
  drops: ChartDrop[];
  /** The line through the readings, stepping down at each compaction; breaks where unknown. */
  path: string;
  window: { y: number; size: number; label: string } | undefined;
  yMax: number;
  baseline: number;
  plotTop: number;
  plotLeft: number;
  plotRight: number;
  /** Turn names along the x axis, spaced so they never overlap; the first and newest kept. */
  xLabels: ChartAxisLabel[];
  /** Figures up the y axis: 0, half the scale and its top, less any the window's label would touch. */
  yTicks: Array<{ y: number; label: string }>;
  /** Said under the chart when the window is known but above the scale. */
  windowNote: string | undefined;
  summary: string;
  /** The newest points as table rows for screen readers (at most TABLE_ROWS_SHOWN). */
  rows: Array<{ key: string; name: string; value: string }>;
  /** How many older points the table leaves out (the turns list reaches every turn). */
  hiddenRows: number;
};

/**
 * A turn's reading as a point (and its table row): its words are formatted only when read,
 * then kept, as only the shown points are read (thinned markers, the newest table rows, the
 * summary). Formatting every reading of a long session was most of the derivation, and
 * defining the getters per object (`Object.defineProperties`) cost as much again: a class
 * keeps them on one prototype.
 */
class ReadingPoint implements ChartPoint {
  private words: string | undefined;
  constructor(
    readonly key: string,
    readonly x: number,
    readonly y: number,
    readonly used: number,
    readonly name: string,
    private readonly size: number | undefined,
  ) {}
  get value(): string {
    this.words ??= this.size
      ? `${formatTokens(this.used)} of ${formatTokens(this.size)}`
      : formatTokens(this.used);
    return this.words;
  }
  get label(): string {
    return `${this.name}: ${this.value}`;
  }
}

type Slot =
  | { kind: "turn"; key: ReportKey; turn: Turn; used: number; size: number | undefined }
  | { kind: "compaction"; key: ReportKey; marker: CompactionMarkerView };

/**
 * Every reading and compaction in the order they were reported (ADR 0121), so a drop sits
 * between the last reading before it and the first after it. A turn's figure is its last
 * reading: the reference daemon says which ledger row it came from (`context_sequence`),
 * comparable with a marker's snapshot sequence; from a daemon that does not, readings and
 * markers are ordered by their timestamps (ties by sequence). Never by the turn's start:
 * a turn's reading is reported at its end, after a compaction inside it.
 */
function orderSlots(data: UsageTurnsView): Slot[] {
  const bySequence = data.turns.every(
    (turn) => turn.usage?.context_used === undefined || turn.usage.context_sequence !== undefined,
  );
  const slots: Slot[] = [];
  for (const turn of data.turns) {
    const used = turn.usage?.context_used;
    if (used === undefined) continue;
    const reported = turn.usage?.context_sequence;
    const key: ReportKey | undefined =
      bySequence && reported !== undefined ? [reported, 0] : turnReportKey(turn);
    if (key === undefined) continue;
    slots.push({ kind: "turn", key, turn, used, size: turn.usage?.context_size });
  }
  for (const marker of data.compactions) {
    const key: ReportKey = bySequence ? [marker.sequence, 0] : markerReportKey(marker);
    slots.push({ kind: "compaction", key, marker });
  }
  return slots.sort((a, b) => (isBefore(a.key, b.key) ? -1 : isBefore(b.key, a.key) ? 1 : 0));
}

/** The figures the y scale has to hold, and the largest window any of them names. */
function scaleInputs(slots: readonly Slot[]): { values: number[]; windowSize: number | undefined } {
  const sizes: number[] = [];
  const values: number[] = [];
  for (const slot of slots) {
    if (slot.kind === "turn") {
      values.push(slot.used);
      if (slot.size) sizes.push(slot.size);
    } else {
      const { context_used, context_size, context_after } = slot.marker;
      if (context_used !== undefined) values.push(context_used);
      if (context_size) sizes.push(context_size);
      if (context_after) {
        values.push(context_after.used);
        if (context_after.size) sizes.push(context_after.size);
      }
    }
  }
  return { values, windowSize: sizes.length > 0 ? Math.max(...sizes) : undefined };
}

type PlottedSlots = Pick<ChartGeometry, "points" | "drops" | "path"> & {
  rows: ChartGeometry["rows"];
};

/** The line's pen: moves to the first point, draws to the next, lifts where a figure is unknown. */
function linePen() {
  const segments: string[] = [];
  let penDown = false;
  return {
    draw(x: number, y: number) {
      segments.push(`${penDown ? "L" : "M"}${round(x)} ${y}`);
      penDown = true;
    },
    lift() {
      penDown = false;
    },
    path: () => segments.join(" "),
  };
}

function compactionDrop(
  marker: CompactionMarkerView,
  x: number,
  yAt: (value: number) => number,
  requests: CompactionRequests,
): ChartDrop {
  const before = marker.context_used;
  const after = marker.context_after?.used;
  const incomplete = didNotComplete(marker);
  return {
    key: marker.compaction_id,
    x,
    yBefore: before !== undefined ? yAt(before) : undefined,
    yAfter: incomplete || after === undefined ? undefined : yAt(after),
    label: describeMarker(marker, requests),
    incomplete,
  };
}

/** Each slot placed: turns as points on the line, compactions as drops the line steps down. */
function plotSlots(
  slots: readonly Slot[],
  xAt: (index: number) => number,
  yAt: (value: number) => number,
  numbers: ReadonlyMap<string, number>,
  requests: CompactionRequests,
): PlottedSlots {
  const points: ChartPoint[] = [];
  const drops: ChartDrop[] = [];
  const rows: ChartGeometry["rows"] = [];
  const pen = linePen();
  slots.forEach((slot, index) => {
    const x = round(xAt(index));
    if (slot.kind === "turn") {
      const y = yAt(slot.used);
      const name = `Turn ${numbers.get(slot.turn.turn_id) ?? "?"}`;
      const point = new ReadingPoint(slot.turn.turn_id, x, y, slot.used, name, slot.size);
      points.push(point);
      // The point is its own table row: the same key, name and value.
      rows.push(point);
      pen.draw(x, y);
      return;
    }
    const drop = compactionDrop(slot.marker, x, yAt, requests);
    drops.push(drop);
    rows.push({ key: drop.key, name: "Compaction", value: drop.label });
    // A compaction that did not complete leaves the line alone: no step down, no step up.
    if (drop.incomplete) return;
    for (const y of [drop.yBefore, drop.yAfter]) {
      if (y !== undefined) pen.draw(x, y);
      else pen.lift();
    }
  });
  return { points, drops, rows, path: pen.path() };
}

export function deriveChartGeometry(
  data: UsageTurnsView,
  requests: CompactionRequests = {},
): ChartGeometry {
  const slots = orderSlots(data);
  const { values, windowSize } = scaleInputs(slots);
  const { yMax, windowInRange } = yScaleOf(values, windowSize);

  const plotLeft = CHART.left;
  const plotRight = CHART.width - CHART.right;
  const plotTop = CHART.top;
  const baseline = CHART.height - CHART.bottom;
  const xAt = (index: number) =>
    slots.length <= 1
      ? (plotLeft + plotRight) / 2
      : plotLeft + (index * (plotRight - plotLeft)) / (slots.length - 1);
  const yAt = (value: number) => round(baseline - (value / yMax) * (baseline - plotTop));
  const { points, drops, rows, path } = plotSlots(
    slots,
    xAt,
    yAt,
    turnNumbers(data.turns),
    requests,
  );

  const window =
    windowSize !== undefined && windowInRange
      ? { y: yAt(windowSize), size: windowSize, label: formatTokens(windowSize) }
      : undefined;
  return {
    points,
    drops,
    path,
    window,
    windowNote: windowNote(windowSize, windowInRange),
    yMax,
    baseline,
    plotTop,
    plotLeft,
    plotRight,
    xLabels: spacedLabels(points, plotLeft, plotRight),
    yTicks: yTicksBeside(yMax, yAt, window),
    summary: summarize(points, drops, windowSize),
    rows: rows.slice(-TABLE_ROWS_SHOWN),
    hiddenRows: Math.max(0, rows.length - TABLE_ROWS_SHOWN),
  };
}

/**
 * The y axis figures; a tick the window's own label (drawn in the same column) would
 * touch gives way to it, and the window's line replaces a tick at the same height.
 */
function yTicksBeside(
  yMax: number,
  yAt: (value: number) => number,
  window: { y: number } | undefined,
): ChartGeometry["yTicks"] {
  return yTickValues(yMax)
    .map((value) => ({ y: yAt(value), label: formatTokens(value) }))
    .filter((tick) => window === undefined || Math.abs(tick.y - window.y) >= Y_LABEL_MIN_GAP);
}

/** A label's width in viewBox units, generously (an 11-unit "Turn 12" is about 40 wide). */
export function labelWidth(text: string): number {
  return text.length * LABEL_SIZE * 0.6;
}

/** Room kept between two turn names along the x axis. */
const LABEL_SPACE = 6;

function extent(label: ChartAxisLabel): [number, number] {
  const width = labelWidth(label.text);
  if (label.anchor === "start") return [label.x, label.x + width];
  if (label.anchor === "end") return [label.x - width, label.x];
  return [label.x - width / 2, label.x + width / 2];
}

/**
 * Turn names under their points, as many as fit: the newest always, then from the oldest
 * every one whose text (by its anchor) keeps LABEL_SPACE from the last label and the newest.
 */
function spacedLabels(points: readonly ChartPoint[], left: number, right: number) {
  const newestPoint = points.at(-1);
  if (!newestPoint) return [];
  const newest = axisLabel(newestPoint, left, right);
  const newestLeft = extent(newest)[0];
  const chosen: ChartAxisLabel[] = [];
  let lastRight = Number.NEGATIVE_INFINITY;
  for (const point of points.slice(0, -1)) {
    const label = axisLabel(point, left, right);
    const [start, end] = extent(label);
    if (start < lastRight + LABEL_SPACE) continue;
    if (end > newestLeft - LABEL_SPACE) break;
    chosen.push(label);
    lastRight = end;
  }
  chosen.push(newest);
  return chosen;
}

function axisLabel(point: ChartPoint, left: number, right: number): ChartAxisLabel {
  const anchor = point.x <= left ? "start" : point.x >= right ? "end" : "middle";
  return { text: point.name, x: point.x, anchor };
}

function summarize(points: ChartPoint[], drops: ChartDrop[], windowSize: number | undefined) {
  if (points.length === 0) return "No context readings yet.";
  const parts = [
    `Context over time: ${plural(points.length, "turn reading")}, ${plural(drops.length, "compaction")}.`,
  ];
  const latest = points.at(-1);
  if (latest) {
    const peak = Math.max(...points.map((point) => point.used));
    parts.push(`Latest ${latest.value}; peak ${formatTokens(peak)}.`);
  }
  if (windowSize) parts.push(`Window ${formatTokens(windowSize)}.`);
  return parts.join(" ");
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
