// How token counts, percentages and costs read everywhere in the SPA:
// `950`, `12K`, `89.7K`, `1.2M` (Intl's compact notation, one decimal, dropped when it is
// `.0`); `6.4%` under 10 %, `35%` above.

/** The platform's compact notation: it rounds across units itself (999,960 reads `1M`). */
const COMPACT = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

function oneDecimal(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1);
}

export function formatTokens(count: number): string {
  if (!Number.isFinite(count)) return "—";
  // Token counts are whole: a stray fraction never shows as `950.6`.
  return COMPACT.format(Math.round(count));
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

/**
 * A cost in its currency, one rule everywhere: to the cent, or two significant digits
 * below a dollar (`$2.06`, `$0.51`, `$0.094`); `<$0.01` for a positive amount under a cent.
 * The bare amount when the code is missing or unknown.
 */
export function formatCost(amount: number, currency: string | undefined): string {
  if (!Number.isFinite(amount)) return "—";
  const tiny = amount > 0 && amount < 0.01;
  // Cents from a dime up; below it cents alone would round $0.094 to $0.09, so it keeps
  // two significant digits (and at least the cents: $0.03, not $0.030).
  const cents = tiny || amount === 0 || amount >= 0.1;
  const shown = tiny ? 0.01 : cents ? amount : Number(amount.toPrecision(2));
  const digits = { minimumFractionDigits: 2, maximumFractionDigits: cents ? 2 : 3 };
  let text: string | undefined;
  if (currency) {
    try {
      text = new Intl.NumberFormat("en-US", { style: "currency", currency, ...digits }).format(
        shown,
      );
    } catch {
      // An unknown currency code: fall through and name it after the amount.
    }
  }
  if (text === undefined) {
    const bare = new Intl.NumberFormat("en-US", digits).format(shown);
    text = currency ? `${bare} ${currency}` : bare;
  }
  return tiny ? `<${text}` : text;
}
