// The meter's reads (docs/ledger.md §5): the context reading from the newest `usage` row
// and the newest terminal compaction row (two point lookups), totals from usage_totals,
// turns and markers from their small incremental tables.
import type Database from "better-sqlite3";
import type {
  CompactionMarker,
  MarkerContextAfter,
  Turn,
  TurnUsage,
  UsageTurns,
} from "../../src/contract/usage";
import { deriveContext } from "../domain/derive-context";
import type { SessionUsage } from "../domain/session-recorder-api";
import { NO_UPPER_BOUND, READ_SQL } from "./read-sql";

type ReadingRow = { sequence: number; turn_id: string | null; content: string; created_at: string };
type CompactionRow = {
  compaction_id: string;
  status: string;
  first_sequence: number;
  terminal_sequence: number | null;
  fired_sequence: number;
  fired_turn_id: string | null;
  fired_at: string;
  trigger: "agent" | "requested";
  context_used: number | null;
  context_size: number | null;
  snapshot_sequence: number | null;
  snapshot_turn_id: string | null;
  snapshot_at: string | null;
};
type TotalsRow = {
  input_tokens: number | null;
  output_tokens: number | null;
  total_tokens: number | null;
  cache_read_tokens: number | null;
  cache_write_tokens: number | null;
  cost_amount: number | null;
  cost_currency: string | null;
};

export type UsageReader = {
  usage(sessionId: string): SessionUsage;
  usageTurns(sessionId: string): UsageTurns;
};

type UsageStatements = ReturnType<typeof prepareUsageStatements>;

function prepareUsageStatements(db: Database.Database) {
  return {
    agentName: db.prepare<[string], { agent_name: string }>(
      "SELECT agent_name FROM sessions WHERE id = ?",
    ),
    newestReading: db.prepare<[string, string], ReadingRow>(READ_SQL.newestOfType),
    boundaryRow: db.prepare<[string], { compaction_id: string; terminal_sequence: number }>(
      READ_SQL.boundaryRow,
    ),
    totalsRow: db.prepare<[string], TotalsRow>(
      `SELECT input_tokens, output_tokens, total_tokens, cache_read_tokens, cache_write_tokens,
         cost_amount, cost_currency FROM usage_totals WHERE session_id = ?`,
    ),
    turnCount: db.prepare<[string], { n: number }>(READ_SQL.turnCount),
    turnRows: db.prepare<
      [string],
      { turn_id: string; first_sequence: number; usage: string | null }
    >(READ_SQL.turnRows),
    markerRows: db.prepare<[string], CompactionRow>(READ_SQL.markerRows),
    firstReading: db.prepare<[string, number, number], ReadingRow>(READ_SQL.firstReadingBetween),
  };
}

/** The session's running totals, as far as the agent reported them. */
function addTotals(usage: SessionUsage, totals: TotalsRow): void {
  if (totals.input_tokens !== null) usage.input_tokens = totals.input_tokens;
  if (totals.output_tokens !== null) usage.output_tokens = totals.output_tokens;
  if (totals.total_tokens !== null) usage.total_tokens = totals.total_tokens;
  if (totals.cache_read_tokens !== null) usage.cache_read_tokens = totals.cache_read_tokens;
  if (totals.cache_write_tokens !== null) usage.cache_write_tokens = totals.cache_write_tokens;
  if (totals.cost_amount !== null) {
    // The agent's own running total (ADR 0007): CompozyOS's "actual, agent reported";
    // its web shows "—" for a cost without a status.
    usage.total_cost = totals.cost_amount;
    usage.cost_status = "actual";
    usage.cost_source = "agent_reported";
  }
  if (totals.cost_currency !== null) usage.cost_currency = totals.cost_currency;
}

function readUsage(
  statements: UsageStatements,
  contextWindows: Readonly<Record<string, number>>,
  sessionId: string,
): SessionUsage {
  const meta = statements.agentName.get(sessionId);
  const newest = statements.newestReading.get(sessionId, "usage");
  const reading = newest && {
    sequence: newest.sequence,
    turn_id: newest.turn_id,
    created_at: newest.created_at,
    ...(JSON.parse(newest.content) as { context_used: number; context_size: number | null }),
  };
  const boundary = statements.boundaryRow.get(sessionId);
  const window = meta ? contextWindows[meta.agent_name] : undefined;
  const usage: SessionUsage = {
    context: deriveContext(
      reading,
      boundary && {
        compaction_id: boundary.compaction_id,
        sequence: boundary.terminal_sequence,
      },
      window,
    ),
    turn_count: statements.turnCount.get(sessionId)?.n ?? 0,
  };
  const totals = statements.totalsRow.get(sessionId);
  if (totals) addTotals(usage, totals);
  return usage;
}

/**
 * The "after" figure (ADR 0121): the first reading reported after the terminal snapshot
 * and before the next compaction began; `null` while running or when there is none yet.
 */
function contextAfter(
  statements: UsageStatements,
  sessionId: string,
  row: CompactionRow,
  nextStart: number,
): MarkerContextAfter | null {
  if (row.terminal_sequence === null) return null;
  const reading = statements.firstReading.get(sessionId, row.terminal_sequence, nextStart);
  if (reading === undefined) return null;
  const content = JSON.parse(reading.content) as { context_used: number; context_size?: unknown };
  const after: MarkerContextAfter = {
    used: content.context_used,
    sequence: reading.sequence,
    reported_at: reading.created_at,
  };
  if (typeof content.context_size === "number") after.size = content.context_size;
  if (reading.turn_id !== null) after.turn_id = reading.turn_id;
  return after;
}

function readUsageTurns(statements: UsageStatements, sessionId: string): UsageTurns {
  const turns: Turn[] = statements.turnRows.all(sessionId).map((row) => {
    const turn: Turn = { turn_id: row.turn_id, sequence: row.first_sequence };
    if (row.usage !== null) turn.usage = JSON.parse(row.usage) as TurnUsage;
    return turn;
  });
  // October release: turn_id, sequence, at and status describe the newest snapshot of
  // the id, so a compaction finishing in a later turn moves its marker there.
  const rows = statements.markerRows.all(sessionId);
  const markers = rows.map((row, index): CompactionMarker => {
    const nextStart = rows[index + 1]?.first_sequence ?? NO_UPPER_BOUND;
    const marker: CompactionMarker = {
      turn_id: (row.snapshot_sequence === null ? row.fired_turn_id : row.snapshot_turn_id) ?? "",
      sequence: row.snapshot_sequence ?? row.fired_sequence,
      at: row.snapshot_at ?? row.fired_at,
      compaction_id: row.compaction_id,
      trigger: row.trigger,
      status: row.status,
      context_after: contextAfter(statements, sessionId, row, nextStart),
    };
    if (row.context_used !== null) marker.context_used = row.context_used;
    if (row.context_size !== null) marker.context_size = row.context_size;
    return marker;
  });
  markers.sort((a, b) => a.sequence - b.sequence);
  return { turns, compactions: markers };
}

export function createUsageReader(
  db: Database.Database,
  contextWindows: Readonly<Record<string, number>>,
): UsageReader {
  const statements = prepareUsageStatements(db);
  return {
    usage: (sessionId) => readUsage(statements, contextWindows, sessionId),
    usageTurns: (sessionId) => readUsageTurns(statements, sessionId),
  };
}
