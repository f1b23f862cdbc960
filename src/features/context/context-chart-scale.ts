// The chart's y axis, scaled to the readings (issue 18): a session of a few thousand tokens
// fills the plot instead of lying on the floor of a 200K window. The window is drawn as a
// reference line when it falls inside the scale, and named under the chart when it does not.
import { formatTokens } from "../../lib/format-tokens";

/** Room above the highest reading, so the peak is never drawn on the top edge. */
const HEADROOM = 1.1;
// No 2.5: half of 2.5K is 1.25K, which the axis would print as "1.3K".
const NICE_STEPS = [1, 1.2, 1.5, 2, 3, 4, 5, 6, 8, 10];

/** The smallest round step × 10ⁿ at or above `value`: the top and its half read as round figures. */
export function niceCeil(value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = NICE_STEPS.find((candidate) => candidate * power >= value * (1 - 1e-12)) ?? 10;
  return step * power;
}

export type YScale = {
  /** The value at the top of the plot. */
  yMax: number;
  /** The window, when it is known and inside the scale (drawn as a dashed reference line). */
  windowInRange: boolean;
};

/**
 * The top of the scale: a round figure above the highest reading. When the window is
 * known and the readings reach past half of it, the window itself is the top (the plot
 * then reads as "how full"); a reading past the window lifts the top above it; a window
 * far above the readings is left out of the plot.
 */
export function yScaleOf(values: readonly number[], windowSize: number | undefined): YScale {
  const peak = Math.max(1, ...values);
  const top = niceCeil(peak * HEADROOM);
  if (windowSize === undefined) return { yMax: top, windowInRange: false };
  if (peak > windowSize) return { yMax: top, windowInRange: true };
  if (peak >= windowSize / 2) return { yMax: windowSize, windowInRange: true };
  return { yMax: top, windowInRange: windowSize <= top };
}

/** Figures up the y axis: 0, half the scale and its top, each a round number. */
export function yTickValues(yMax: number): number[] {
  return [0, yMax / 2, yMax];
}

/** The line under the chart when the window is known but above the plotted scale. */
export function windowNote(windowSize: number | undefined, inRange: boolean): string | undefined {
  if (windowSize === undefined || inRange) return undefined;
  return `Scaled to the readings; the ${formatTokens(windowSize)} window is above the top.`;
}
