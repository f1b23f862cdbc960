// Every read model, answered from the projection tables or from indexed ranges of the
// ledger: a transcript page is one range on entries_by_start, a stream delta one range on
// entries_by_latest, events one range of the ledger. Nothing here re-folds history. The
// meter's reads live in `usage-reader.ts`.
import type Database from "better-sqlite3";
import {
  EVENT_SCHEMA,
  type EventList,
  type History,
  type LedgerEvent,
} from "../../src/contract/history";
import type { AvailableCommand, SessionState } from "../../src/contract/session";
import type { DaemonEntry, DaemonMessage, TranscriptPage } from "../../src/contract/transcript";
import type { SessionReader } from "../domain/session-recorder-api";
import { withTail } from "../domain/transcript-fold";
import { eventsSql, isIndexedRowType, NO_UPPER_BOUND, READ_SQL } from "./read-sql";
import { createUsageReader } from "./usage-reader";

type LedgerRowRaw = {
  sequence: number;
  turn_id: string | null;
  type: string;
  content: string;
  created_at: string;
};
/** `[start_sequence, sequence, message JSON, tail]`, read in raw (array) mode. */
type EntryTuple = [number, number, string, string | null];

/**
 * An entry as JSON text, byte for byte what `JSON.stringify(toEntry(row))` gives. The stored
 * message is JSON.stringify output, which JSON.parse→JSON.stringify gives back unchanged, so
 * it is spliced in as it is; only a row with a pending tail is parsed to fold the tail in.
 */
function entryJson(row: EntryTuple): string {
  const message = row[3]
    ? JSON.stringify(withTail(JSON.parse(row[2]) as DaemonMessage, row[3]))
    : row[2];
  return `{"message":${message},"start_sequence":${row[0]},"sequence":${row[1]}}`;
}

function toEntry(row: EntryTuple): DaemonEntry {
  return {
    message: withTail(JSON.parse(row[2]) as DaemonMessage, row[3]),
    start_sequence: row[0],
    sequence: row[1],
  };
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

export function createSessionReader(
  db: Database.Database,
  contextWindows: Readonly<Record<string, number>>,
): SessionReader {
  const epochRow = db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'epoch'");
  const newestSequence = db.prepare<[string], number>(READ_SQL.newestSequence).pluck(true);
  const usageReader = createUsageReader(db, contextWindows);
  // Raw (array) mode: a page is the hot read, and row objects would be built only to be
  // taken apart again. `transcriptPageJson` also skips the message JSON parse.
  const pageRows = db.prepare<[string, number, number], EntryTuple>(READ_SQL.pageRows).raw(true);
  const changedRows = db.prepare<[string, number], EntryTuple>(READ_SQL.changedRows).raw(true);
  const newestOfType = db.prepare<[string, string], LedgerRowRaw>(READ_SQL.newestOfType);
  const openRows = db.prepare<[string], { compaction_id: string }>(READ_SQL.openRows);
  const allRows = db.prepare<[string], LedgerRowRaw>(
    `SELECT sequence, turn_id, type, content, created_at FROM ledger
     WHERE session_id = ? ORDER BY sequence`,
  );
  const turnStart = db.prepare<[string, string], { first_sequence: number }>(READ_SQL.turnStart);
  const nextTurnStart = db.prepare<[string, number], { first_sequence: number }>(
    READ_SQL.nextTurnStart,
  );
  // One statement per filter combination, prepared once (see `eventsSql`).
  const eventStatements = new Map<string, Database.Statement<(string | number)[], LedgerRowRaw>>();
  function eventStatement(byTurn: boolean, type: string | undefined) {
    const byType = type === undefined ? false : isIndexedRowType(type) ? "indexed" : "stream";
    const key = `${byTurn}:${byType}`;
    let statement = eventStatements.get(key);
    if (statement === undefined) {
      statement = db.prepare<(string | number)[], LedgerRowRaw>(eventsSql({ byTurn, byType }));
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
  const epochJson = JSON.stringify(epoch);

  function maxSequence(sessionId: string): number {
    return newestSequence.get(sessionId) ?? 0;
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
    const rows = eventStatement(query.turn_id !== undefined, query.type).all(
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

  /** One page of entries, oldest first, each rendered by `render`; rows come newest first. */
  function readPage<T>(
    sessionId: string,
    limit: number,
    beforeSequence: number | undefined,
    render: (row: EntryTuple) => T,
  ): { items: T[]; hasOlder: boolean; oldest: EntryTuple | undefined } {
    const rows = pageRows.all(sessionId, beforeSequence ?? NO_UPPER_BOUND, limit + 1);
    const count = Math.min(rows.length, limit);
    const items = new Array<T>(count);
    for (let index = 0; index < count; index += 1) {
      items[count - 1 - index] = render(rows[index] as EntryTuple);
    }
    return {
      items,
      hasOlder: rows.length > limit,
      oldest: rows[count - 1] as EntryTuple | undefined,
    };
  }

  return {
    transcriptPage(sessionId, { limit, beforeSequence }) {
      const { items: entries, hasOlder } = readPage(sessionId, limit, beforeSequence, toEntry);
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
    transcriptPageJson(sessionId, { limit, beforeSequence }) {
      // The same page as `transcriptPage`, written as JSON in the same key order.
      const {
        items: entries,
        hasOlder,
        oldest,
      } = readPage(sessionId, limit, beforeSequence, entryJson);
      let json = `{"entries":[${entries.join(",")}],"epoch":${epochJson},"generation":0,"max_sequence":${maxSequence(sessionId)},"has_older":${hasOlder},"limit":${JSON.stringify(limit)}`;
      if (hasOlder && oldest !== undefined) json += `,"next_before_sequence":${oldest[0]}`;
      return `${json}}`;
    },
    entriesChangedAfter(sessionId, cursor) {
      return changedRows.all(sessionId, cursor).map(toEntry);
    },
    maxSequence,
    historyVersion() {
      return { epoch, generation: 0 };
    },
    usage: usageReader.usage,
    usageTurns: usageReader.usageTurns,
    history(sessionId, turnId): History {
      let rows: LedgerRowRaw[] = [];
      if (turnId === undefined) rows = allRows.all(sessionId);
      else {
        const span = turnSpan(sessionId, turnId);
        if (span)
          rows = eventStatement(true, undefined).all(
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
