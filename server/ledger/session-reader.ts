// Every read model, answered from the projection tables or from indexed ranges of the
// ledger: a transcript page is one range on entries_by_start, a stream delta one range on
// entries_by_latest, the meter a handful of point lookups. Nothing here re-folds history.
import type Database from "better-sqlite3";
import {
  EVENT_SCHEMA,
  type EventList,
  type History,
  type LedgerEvent,
} from "../../src/contract/history";
import type { AvailableCommand, SessionState } from "../../src/contract/session";
import type { DaemonEntry, DaemonMessage, TranscriptPage } from "../../src/contract/transcript";
import type {
  CompactionMarker,
  SessionUsage,
  Turn,
  TurnUsage,
  UsageTurns,
} from "../../src/contract/usage";
import { deriveContext } from "../domain/derive-context";
import type { SessionReader } from "../domain/session-recorder-api";

type LedgerRowRaw = {
  sequence: number;
  turn_id: string | null;
  type: string;
  content: string;
  created_at: string;
};
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

/** `[start_sequence, sequence, message JSON]`, read in raw (array) mode. */
type EntryTuple = [number, number, string];

function toEntry(row: EntryTuple): DaemonEntry {
  return { message: JSON.parse(row[2]) as DaemonMessage, start_sequence: row[0], sequence: row[1] };
}

function toEvent(sessionId: string, row: LedgerRowRaw): LedgerEvent {
  const content = JSON.parse(row.content) as Record<string, unknown>;
  const event: LedgerEvent = {
    id: `${sessionId}-${row.sequence}`,
    session_id: sessionId,
    sequence: row.sequence,
    type: row.type,
    content: { ...content, schema: EVENT_SCHEMA, type: row.type, timestamp: row.created_at },
  };
  if (row.turn_id !== null) event.turn_id = row.turn_id;
  return event;
}

const NO_UPPER_BOUND = Number.MAX_SAFE_INTEGER;

export function eventsSql(byTurn: boolean, byType: boolean): string {
  return `SELECT sequence, turn_id, type, content, created_at FROM ledger
    WHERE session_id = ? AND sequence > ? AND sequence < ?
    ${byTurn ? "AND turn_id = ?" : ""} ${byType ? "AND type = ?" : ""}
    ORDER BY sequence LIMIT ?`;
}

/** The hot reads' SQL, exported so a test can check each one is an indexed search. */
export const READ_SQL = {
  pageRows: `SELECT start_sequence, sequence, message FROM entries
       WHERE session_id = ? AND start_sequence < ? ORDER BY start_sequence DESC LIMIT ?`,
  changedRows: `SELECT start_sequence, sequence, message FROM entries
       WHERE session_id = ? AND sequence > ? ORDER BY start_sequence`,
  newestOfType: `SELECT sequence, turn_id, type, content, created_at FROM ledger
     WHERE session_id = ? AND type = ? ORDER BY sequence DESC LIMIT 1`,
  firstReadingBetween: `SELECT sequence, turn_id, type, content, created_at FROM ledger
     WHERE session_id = ? AND type = 'usage' AND sequence > ? AND sequence < ?
     ORDER BY sequence LIMIT 1`,
  boundaryRow: `SELECT compaction_id, terminal_sequence FROM compactions
     WHERE session_id = ? AND terminal_sequence IS NOT NULL
     ORDER BY terminal_sequence DESC LIMIT 1`,
  turnRows:
    "SELECT turn_id, first_sequence, usage FROM turns WHERE session_id = ? ORDER BY first_sequence",
  markerRows: `SELECT compaction_id, status, first_sequence, terminal_sequence, fired_sequence,
       fired_turn_id, fired_at, trigger, context_used, context_size
     FROM compactions WHERE session_id = ? AND fired_sequence IS NOT NULL
     ORDER BY first_sequence`,
  openRows: `SELECT compaction_id FROM compactions WHERE session_id = ?
     AND status NOT IN ('completed', 'failed', 'cancelled') ORDER BY first_sequence`,
  turnStart: "SELECT first_sequence FROM turns WHERE session_id = ? AND turn_id = ?",
  nextTurnStart: `SELECT first_sequence FROM turns WHERE session_id = ? AND first_sequence > ?
     ORDER BY first_sequence LIMIT 1`,
  turnCount: "SELECT COUNT(*) AS n FROM turns WHERE session_id = ?",
} as const;

export function createSessionReader(
  db: Database.Database,
  contextWindows: Readonly<Record<string, number>>,
): SessionReader {
  const epochRow = db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'epoch'");
  const sessionMeta = db.prepare<[string], { last_sequence: number; agent_name: string }>(
    "SELECT last_sequence, agent_name FROM sessions WHERE id = ?",
  );
  // Raw (array) mode: a page is the hot read, and row objects would be built only to be
  // taken apart again. The message JSON parse is the one cost that cannot go.
  const pageRows = db.prepare<[string, number, number], EntryTuple>(READ_SQL.pageRows).raw(true);
  const changedRows = db.prepare<[string, number], EntryTuple>(READ_SQL.changedRows).raw(true);
  const newestOfType = db.prepare<[string, string], LedgerRowRaw>(READ_SQL.newestOfType);
  const firstReadingBetween = db.prepare<[string, number, number], LedgerRowRaw>(
    READ_SQL.firstReadingBetween,
  );
  const boundaryRow = db.prepare<[string], { compaction_id: string; terminal_sequence: number }>(
    READ_SQL.boundaryRow,
  );
  const totalsRow = db.prepare<[string], TotalsRow>(
    `SELECT input_tokens, output_tokens, total_tokens, cache_read_tokens, cache_write_tokens,
       cost_amount, cost_currency FROM usage_totals WHERE session_id = ?`,
  );
  const turnCount = db.prepare<[string], { n: number }>(READ_SQL.turnCount);
  const turnRows = db.prepare<
    [string],
    { turn_id: string; first_sequence: number; usage: string | null }
  >(READ_SQL.turnRows);
  const markerRows = db.prepare<[string], CompactionRow>(READ_SQL.markerRows);
  const openRows = db.prepare<[string], { compaction_id: string }>(READ_SQL.openRows);
  const allRows = db.prepare<[string], LedgerRowRaw>(
    `SELECT sequence, turn_id, type, content, created_at FROM ledger
     WHERE session_id = ? ORDER BY sequence`,
  );
  const turnStart = db.prepare<[string, string], { first_sequence: number }>(READ_SQL.turnStart);
  const nextTurnStart = db.prepare<[string, number], { first_sequence: number }>(
    READ_SQL.nextTurnStart,
  );
  // One statement per filter combination, prepared once. Each is a single indexed range:
  // the primary key (optionally bounded to one turn's span) or ledger_by_type.
  const eventStatements = new Map<string, Database.Statement<(string | number)[], LedgerRowRaw>>();
  function eventStatement(byTurn: boolean, byType: boolean) {
    const key = `${byTurn}:${byType}`;
    let statement = eventStatements.get(key);
    if (statement === undefined) {
      statement = db.prepare<(string | number)[], LedgerRowRaw>(eventsSql(byTurn, byType));
      eventStatements.set(key, statement);
    }
    return statement;
  }

  /**
   * The sequences a turn's rows lie in: from its first row to the next turn's first row.
   * Turns never overlap (one prompt at a time per session, acp-intake.md §1), so this
   * span plus `turn_id = ?` finds exactly the turn's rows without an index on turn_id.
   */
  function turnSpan(sessionId: string, turnId: string): { from: number; to: number } | undefined {
    const start = turnStart.get(sessionId, turnId);
    if (start === undefined) return undefined;
    const next = nextTurnStart.get(sessionId, start.first_sequence);
    return { from: start.first_sequence, to: next?.first_sequence ?? NO_UPPER_BOUND };
  }

  const epoch = epochRow.get()?.value ?? "";

  function maxSequence(sessionId: string): number {
    return sessionMeta.get(sessionId)?.last_sequence ?? 0;
  }

  function events(
    sessionId: string,
    query: { turn_id?: string; type?: string; after_sequence?: number; limit: number },
  ): EventList {
    let after = query.after_sequence ?? 0;
    let before = NO_UPPER_BOUND;
    const params: (string | number)[] = [];
    if (query.turn_id !== undefined) {
      const span = turnSpan(sessionId, query.turn_id);
      if (span === undefined) return { events: [], has_more: false };
      after = Math.max(after, span.from - 1);
      before = span.to;
      params.push(query.turn_id);
    }
    if (query.type !== undefined) params.push(query.type);
    const rows = eventStatement(query.turn_id !== undefined, query.type !== undefined).all(
      sessionId,
      after,
      before,
      ...params,
      query.limit + 1,
    );
    return {
      events: rows.slice(0, query.limit).map((row) => toEvent(sessionId, row)),
      has_more: rows.length > query.limit,
    };
  }

  return {
    transcriptPage(sessionId, { limit, beforeSequence }) {
      const rows = pageRows.all(sessionId, beforeSequence ?? NO_UPPER_BOUND, limit + 1);
      const hasOlder = rows.length > limit;
      const count = Math.min(rows.length, limit);
      const entries = new Array<DaemonEntry>(count);
      // Rows come newest first; the page is oldest first.
      for (let index = 0; index < count; index += 1) {
        entries[count - 1 - index] = toEntry(rows[index] as EntryTuple);
      }
      const page: TranscriptPage = {
        entries,
        epoch,
        generation: 0,
        max_sequence: maxSequence(sessionId),
        has_older: hasOlder,
        limit,
      };
      const oldest = entries[0];
      if (hasOlder && oldest !== undefined) page.next_before_sequence = oldest.start_sequence;
      return page;
    },
    entriesChangedAfter(sessionId, cursor) {
      return changedRows.all(sessionId, cursor).map(toEntry);
    },
    maxSequence,
    historyVersion() {
      return { epoch, generation: 0 };
    },
    usage(sessionId) {
      const meta = sessionMeta.get(sessionId);
      const newest = newestOfType.get(sessionId, "usage");
      const reading = newest && {
        sequence: newest.sequence,
        turn_id: newest.turn_id,
        created_at: newest.created_at,
        ...(JSON.parse(newest.content) as { context_used: number; context_size: number | null }),
      };
      const boundary = boundaryRow.get(sessionId);
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
        turn_count: turnCount.get(sessionId)?.n ?? 0,
      };
      const totals = totalsRow.get(sessionId);
      if (totals) {
        if (totals.input_tokens !== null) usage.input_tokens = totals.input_tokens;
        if (totals.output_tokens !== null) usage.output_tokens = totals.output_tokens;
        if (totals.total_tokens !== null) usage.total_tokens = totals.total_tokens;
        if (totals.cache_read_tokens !== null) usage.cache_read_tokens = totals.cache_read_tokens;
        if (totals.cache_write_tokens !== null)
          usage.cache_write_tokens = totals.cache_write_tokens;
        if (totals.cost_amount !== null) usage.total_cost = totals.cost_amount;
        if (totals.cost_currency !== null) usage.cost_currency = totals.cost_currency;
      }
      return usage;
    },
    usageTurns(sessionId): UsageTurns {
      const turns: Turn[] = turnRows.all(sessionId).map((row) => {
        const turn: Turn = { turn_id: row.turn_id, sequence: row.first_sequence };
        if (row.usage !== null) turn.usage = JSON.parse(row.usage) as TurnUsage;
        return turn;
      });
      const compactions = markerRows.all(sessionId);
      const markers = compactions.map((row, index): CompactionMarker => {
        const marker: CompactionMarker = {
          sequence: row.fired_sequence,
          at: row.fired_at,
          compaction_id: row.compaction_id,
          trigger: row.trigger,
          status: row.status,
        };
        if (row.fired_turn_id !== null) marker.turn_id = row.fired_turn_id;
        if (row.context_used !== null) marker.context_used = row.context_used;
        if (row.context_size !== null) marker.context_size = row.context_size;
        if (row.terminal_sequence !== null) {
          const next = compactions[index + 1]?.first_sequence ?? NO_UPPER_BOUND;
          const after = firstReadingBetween.get(sessionId, row.terminal_sequence, next);
          if (after) {
            const content = JSON.parse(after.content) as {
              context_used: number;
              context_size?: number;
            };
            marker.context_after = { used: content.context_used, sequence: after.sequence };
            if (content.context_size !== undefined && content.context_size > 0) {
              marker.context_after.size = content.context_size;
            }
          }
        }
        return marker;
      });
      return { turns, compactions: markers };
    },
    history(sessionId, turnId): History {
      let rows: LedgerRowRaw[] = [];
      if (turnId === undefined) rows = allRows.all(sessionId);
      else {
        const span = turnSpan(sessionId, turnId);
        if (span)
          rows = eventStatement(true, false).all(
            sessionId,
            span.from - 1,
            span.to,
            turnId,
            NO_UPPER_BOUND,
          );
      }
      const history: History["history"] = [];
      // Consecutive rows of one turn form a group; rows between turns get `turn_id: null`.
      for (const row of rows) {
        const group = history[history.length - 1];
        const event = toEvent(sessionId, row);
        if (group !== undefined && group.turn_id === row.turn_id) group.events.push(event);
        else history.push({ turn_id: row.turn_id, events: [event] });
      }
      return { history };
    },
    events,
    availableCommands(sessionId) {
      const row = newestOfType.get(sessionId, "available_commands");
      if (row === undefined) return [];
      return (JSON.parse(row.content) as { commands: AvailableCommand[] }).commands;
    },
    lastState(sessionId) {
      const row = newestOfType.get(sessionId, "session.state");
      if (row === undefined) return { state: "stopped" };
      const content = JSON.parse(row.content) as { state: SessionState; reason?: string };
      return content.reason === undefined
        ? { state: content.state }
        : { state: content.state, reason: content.reason };
    },
    openCompactions(sessionId) {
      return openRows.all(sessionId).map((row) => row.compaction_id);
    },
  };
}
