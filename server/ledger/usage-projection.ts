// The write side of the usage read model (docs/ledger.md §5): per-turn merged usage and
// the session totals, kept incrementally so the meter and the turns list never scan the
// ledger. The context reading itself needs no table: it is the newest `usage` row,
// found through the ledger's (session_id, type, sequence) index.
import type Database from "better-sqlite3";
import type { LedgerRow } from "../domain/session-recorder-api";

const COUNTERS = [
  "input_tokens",
  "output_tokens",
  "total_tokens",
  "thought_tokens",
  "cache_read_tokens",
  "cache_write_tokens",
] as const;

/** Counters the session totals carry (the wire has no session-wide thought tokens). */
const TOTAL_COUNTERS = [
  "input_tokens",
  "output_tokens",
  "total_tokens",
  "cache_read_tokens",
  "cache_write_tokens",
] as const;

export type UsageProjection = { apply(row: LedgerRow): void };

function numberOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

export function createUsageProjection(db: Database.Database): UsageProjection {
  const ensureTurn = db.prepare(
    `INSERT INTO turns (session_id, turn_id, first_sequence) VALUES (?, ?, ?)
     ON CONFLICT (session_id, turn_id) DO NOTHING`,
  );
  const markRequested = db.prepare(
    "UPDATE turns SET compact_requested = 1 WHERE session_id = ? AND turn_id = ?",
  );
  const turnUsage = db.prepare<[string, string], { usage: string | null }>(
    "SELECT usage FROM turns WHERE session_id = ? AND turn_id = ?",
  );
  const setTurnUsage = db.prepare(
    "UPDATE turns SET usage = ? WHERE session_id = ? AND turn_id = ?",
  );
  const ensureTotals = db.prepare(
    "INSERT INTO usage_totals (session_id) VALUES (?) ON CONFLICT (session_id) DO NOTHING",
  );
  // Token totals are sums of every prompt's counters; a counter no prompt reported stays
  // NULL so the wire field stays absent rather than a made-up 0.
  const addCounters = db.prepare(
    `UPDATE usage_totals SET ${TOTAL_COUNTERS.map(
      (name) =>
        `${name} = CASE WHEN @${name} IS NULL THEN ${name} ELSE COALESCE(${name}, 0) + @${name} END`,
    ).join(", ")} WHERE session_id = @session_id`,
  );
  // ACP's `usage_update.cost` is the session's cumulative cost: the newest one is the total.
  const setCost = db.prepare(
    "UPDATE usage_totals SET cost_amount = ?, cost_currency = ? WHERE session_id = ?",
  );

  /** Last non-null value per field wins; `timestamp` is the newest contributing row. */
  function mergeTurn(row: LedgerRow, fields: Record<string, number | string | null>): void {
    if (row.turn_id === null) return;
    const stored = turnUsage.get(row.session_id, row.turn_id);
    const merged = stored?.usage ? (JSON.parse(stored.usage) as Record<string, unknown>) : {};
    for (const [name, value] of Object.entries(fields)) {
      if (value !== null) merged[name] = value;
    }
    merged.timestamp = row.created_at;
    setTurnUsage.run(JSON.stringify(merged), row.session_id, row.turn_id);
  }

  return {
    apply(row) {
      if (row.turn_id !== null) ensureTurn.run(row.session_id, row.turn_id, row.sequence);
      switch (row.type) {
        case "session.compaction.requested":
          if (row.turn_id !== null) markRequested.run(row.session_id, row.turn_id);
          return;
        case "usage": {
          const amount = numberOrNull(row.content.cost_amount);
          const currency =
            typeof row.content.cost_currency === "string" ? row.content.cost_currency : null;
          const used = numberOrNull(row.content.context_used);
          mergeTurn(row, {
            context_used: used,
            // Which report the turn's figure is: the chart orders readings by it (ADR 0121).
            context_sequence: used === null ? null : row.sequence,
            context_size: numberOrNull(row.content.context_size),
            cost_amount: amount,
            cost_currency: currency,
          });
          if (amount !== null) {
            ensureTotals.run(row.session_id);
            setCost.run(amount, currency, row.session_id);
          }
          return;
        }
        case "prompt.completed": {
          const counters: Record<string, number | null> = {};
          for (const name of COUNTERS) counters[name] = numberOrNull(row.content[name]);
          mergeTurn(row, counters);
          ensureTotals.run(row.session_id);
          const totals: Record<string, number | string | null> = { session_id: row.session_id };
          for (const name of TOTAL_COUNTERS) totals[name] = counters[name] ?? null;
          addCounters.run(totals);
          return;
        }
      }
    },
  };
}
