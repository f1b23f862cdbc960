// Where the chart's glyphs and labels land, as boxes in viewBox units, from the same numbers
// the component draws with: lets a test prove that no marker covers a label and no two
// labels touch, for any session (issue 18: "markers never overlap their labels").
import {
  type ChartGeometry,
  LABEL_SIZE,
  labelWidth,
  MARKER_RADIUS,
  X_LABEL_OFFSET,
  Y_LABEL_GAP,
} from "./context-chart-geometry";

export type Box = { left: number; right: number; top: number; bottom: number; what: string };

const ASCENT = LABEL_SIZE * 0.8;
const DESCENT = LABEL_SIZE * 0.25;
const STROKE = 1;

function textBox(x: number, baseline: number, text: string, anchor: "start" | "middle" | "end") {
  const width = labelWidth(text);
  const left = anchor === "start" ? x : anchor === "middle" ? x - width / 2 : x - width;
  return {
    left,
    right: left + width,
    top: baseline - ASCENT,
    bottom: baseline + DESCENT,
    what: text,
  };
}

export function labelBoxes(chart: ChartGeometry): Box[] {
  const yLabel = (y: number, text: string) =>
    textBox(chart.plotLeft - Y_LABEL_GAP, y + 3, text, "end");
  return [
    ...chart.yTicks.map((tick) => yLabel(tick.y, tick.label)),
    ...(chart.window ? [yLabel(chart.window.y, chart.window.label)] : []),
    ...chart.xLabels.map((label) =>
      textBox(label.x, chart.baseline + X_LABEL_OFFSET, label.text, label.anchor),
    ),
  ];
}

export function markerBoxes(chart: ChartGeometry): Box[] {
  const boxes: Box[] = [];
  const square = (x: number, y: number, half: number, what: string) =>
    boxes.push({ left: x - half, right: x + half, top: y - half, bottom: y + half, what });
  for (const point of chart.points) square(point.x, point.y, MARKER_RADIUS + STROKE, point.key);
  for (const drop of chart.drops) {
    const what = `drop ${drop.key}`;
    boxes.push({
      left: drop.x - 1,
      right: drop.x + 1,
      top: chart.baseline - 4,
      bottom: chart.baseline + 2,
      what,
    });
    if (drop.incomplete) square(drop.x, drop.yBefore ?? chart.plotTop + 4, 3 + STROKE, what);
    if (drop.yAfter !== undefined) {
      const top = Math.min(drop.yBefore ?? drop.yAfter, drop.yAfter - 5);
      boxes.push({ left: drop.x - 4, right: drop.x + 4, top, bottom: drop.yAfter, what });
    }
  }
  return boxes;
}

export function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}
