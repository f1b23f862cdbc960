// How token counts, percentages and costs read everywhere in the SPA:
// `950`, `12K`, `89.7K`, `1.2M` (one decimal, dropped when it is `.0`); `6.4%` under 10 %,
// `35%` above.

const UNITS = [
  { size: 1e9, suffix: "B" },
  { size: 1e6, suffix: "M" },
  { size: 1e3, suffix: "K" },
] as const;

function oneDecimal(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1);
}

export function formatTokens(count: number): string {
  if (!Number.isFinite(count)) return "—";
  const sign = count < 0 ? "-" : "";
  const value = Math.abs(count);
  if (value < 1000) return `${sign}${Math.round(value)}`;
  // Walk up from the smallest unit so 999,960 reads `1M`, not `1000K`.
  for (let index = UNITS.length - 1; index >= 0; index--) {
    const unit = UNITS[index]!;
    const scaled = Math.round((value / unit.size) * 10) / 10;
    if (scaled < 1000 || index === 0) return `${sign}${oneDecimal(scaled)}${unit.suffix}`;
  }
  return `${sign}${value}`;
}

/** A ratio (0.35) as a percentage: one decimal under 10 %, whole numbers from 10 % up. */
export function formatPercent(ratio: number): string {
  if (!Number.isFinite(ratio)) return "—";
  const percent = ratio * 100;
  if (percent <= 0) return "0%";
  if (percent < 0.05) return "<0.1%";
  const tenths = Math.round(percent * 10) / 10;
  if (tenths < 10) return `${oneDecimal(tenths)}%`;
  return `${Math.round(percent)}%`;
}

/** A cost in its currency (`$0.0123`), or the bare amount when the code is missing or unknown. */
export function formatCost(amount: number, currency: string | undefined): string {
  const digits = { minimumFractionDigits: 2, maximumFractionDigits: 4 };
  if (currency) {
    try {
      return new Intl.NumberFormat("en-US", { style: "currency", currency, ...digits }).format(
        amount,
      );
    } catch {
      // An unknown currency code: fall through and name it after the amount.
    }
  }
  const bare = new Intl.NumberFormat("en-US", digits).format(amount);
  return currency ? `${bare} ${currency}` : bare;
}
