// One printed line per measured figure, with its ratio to the budget in docs/quality.md and,
// where there is one, to a bare baseline measured in the same run.
export type Figure = {
  name: string;
  value: number;
  unit: string;
  /** The budget from docs/quality.md, in the same unit. */
  budget: number;
  /** `max`: the value must stay at or below the budget; `min`: at or above. */
  kind: "max" | "min";
  baseline?: { name: string; value: number };
};

function fmt(value: number): string {
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(value >= 10 ? 1 : 2);
}

export function formatFigure(figure: Figure): string {
  const ratio = figure.value / figure.budget;
  const ok = figure.kind === "max" ? figure.value <= figure.budget : figure.value >= figure.budget;
  const budgetSign = figure.kind === "max" ? "≤" : "≥";
  let line = `${ok ? "ok  " : "OVER"} ${figure.name}: ${fmt(figure.value)} ${figure.unit} (budget ${budgetSign} ${fmt(figure.budget)} ${figure.unit}, ${ratio.toFixed(2)}× budget)`;
  if (figure.baseline) {
    const base = figure.value / figure.baseline.value;
    line += `; ${base.toFixed(2)}× ${figure.baseline.name} (${fmt(figure.baseline.value)} ${figure.unit})`;
  }
  return line;
}

export function printFigure(figure: Figure): void {
  console.log(formatFigure(figure));
}

/** The p-th percentile (0–100) of a list of samples, nearest-rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}
