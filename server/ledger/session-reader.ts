// One piece: every read model's prepared statements over the same tables, built once when
// the ledger opens; each query is a few lines.
// Every read model, answered from the projection tables or from indexed ranges of the
// ledger: a transcript page is one range on entries_by_start, a stream delta one range on
// entries_by_latest, events one range of the ledger. Nothing here re-folds history. The
// meter's reads live in `usage-reader.ts`.
import type Database from "better-sqlite3";
import {
  COMPACTION_FIRED_EVENT,
  type DaemonSessionEvent,
  EVENT_SCHEMA,
} from "../../src/contract/history";
import type { AvailableCommand, SessionState } from "../../src/contract/session";
import type { DaemonEntry, DaemonMessage, TranscriptPage } from "../../src/contract/transcript";
import type { ConfigOption, ModeState } from "../domain/agent-session-info";
import {
  type EventFilter,
  type EventList,
  HISTORY_BATCH,
  type History,
  type HistoryGroup,
  type SessionReader,
  type SessionSettings,
} from "../domain/session-recorder-api";
import { withTail } from "../domain/transcript-fold";
import {
  eventsSql,
  historyGroupRowsSql,
  historyGroupsSql,
  isHiddenRowType,
  isIndexedRowType,
  NO_UPPER_BOUND,
  READ_SQL,
} from "./read-sql";

/**
 * The transcript projection's generation: bumped by a migration that rebuilds `entries`,
 * so a client holding entries of the old fold gets a `generation_mismatch` reset.
 */
export const PROJECTION_GENERATION = 1;

import { createTailReader } from "./tail-reader";
import { createUsageReader } from "./usage-reader";

export type LedgerRowRaw = {
  sequence: number;
  turn_id: string | null;
  type: string;
  content: string;
  created_at: string;
};
/** `[start_sequence, sequence, message JSON, tail]`, read in raw (array) mode. */
export type EntryTuple = [number, number, string, string | null];

/**
 * An entry as JSON text, byte for byte what `JSON.stringify(toEntry(row))` gives. The stored
 * message is JSON.stringify output, which JSON.parse→JSON.stringify gives back unchanged, so
 * it is spliced in as it is; only a row with a pending tail is parsed to fold the tail in.
 */
export function entryJson(row: EntryTuple): string {
  const message = row[3]
    ? JSON.stringify(withTail(JSON.parse(row[2]) as DaemonMessage, row[3]))
    : row[2];
  return `{"message":${message},"start_sequence":${row[0]},"sequence":${row[1]}}`;
}

export function toEntry(row: EntryTuple): DaemonEntry {
  return {
    message: withTail(JSON.parse(row[2]) as DaemonMessage, row[3]),
    start_sequence: row[0],
    sequence: row[1],
  };
}

/** Who a session's events belong to: CompozyOS puts both on every event. */
type EventOwner = { sessionId: string; agentName: string; workspaceId: string };

/**
 * The read form of a stored row (CompozyOS `SessionEventPayload`): the canonical content
 * with `schema`, `type` and `timestamp`; `turn_id` is `""` outside a turn. A fired row is
 * stored flat and read with its payload under `content.raw`, as CompozyOS shows it.
 */
export function toEvent(owner: EventOwner, row: LedgerRowRaw): DaemonSessionEvent {
  const stored = JSON.parse(row.content) as Record<string, unknown>;
  const body = row.type === COMPACTION_FIRED_EVENT && !("raw" in stored) ? { raw: stored } : stored;
  return {
    id: `${owner.sessionId}-${row.sequence}`,
    session_id: owner.sessionId,
    sequence: row.sequence,
    turn_id: row.turn_id ?? "",
    type: row.type,
    agent_name: owner.agentName,
    workspace_id: owner.workspaceId,
    spawn_depth: 0,
    content: { schema: EVENT_SCHEMA, type: row.type, ...body, timestamp: row.created_at },
    timestamp: row.created_at,
  };
}

export function createSessionReader(
  db: Database.Database,
  contextWindows: Readonly<Record<string, number>>,
): SessionReader {
  const epochRow = db.prepare<[], { value: string }>(
    "SELECT value FROM meta WHERE key = 'transcript_epoch'",
  );
  const ownerRow = db.prepare<[string], { agent_name: string; workspace_id: string }>(
    "SELECT agent_name, workspace_id FROM sessions WHERE id = ?",
  );
  const admissionRow = db.prepare<
    [string, string],
    { message_id: string; fingerprint: string; turn_id: string; result: string }
  >(
    `SELECT message_id, fingerprint, turn_id, result FROM prompt_admissions
     WHERE session_id = ? AND idempotency_key = ?`,
  );
  const newestSequence = db.prepare<[string], number>(READ_SQL.newestSequence).pluck(true);
  const usageReader = createUsageReader(db, contextWindows);
  // Raw (array) mode: a page is the hot read, and row objects would be built only to be
  // taken apart again. `transcriptPageJson` also skips the message JSON parse.
  const pageRows = db.prepare<[string, number, number], EntryTuple>(READ_SQL.pageRows).raw(true);
  const changedRows = db
    .prepare<[string, number], [number, number, string, string]>(READ_SQL.changedRows)
    .raw(true);
  const tails = createTailReader(db);
  const newestOfType = db.prepare<[string, string], LedgerRowRaw>(READ_SQL.newestOfType);
  const openRows = db.prepare<[string], { compaction_id: string }>(READ_SQL.openRows);
  const rowsOfType = db.prepare<[string, string], LedgerRowRaw>(READ_SQL.rowsOfType);
  const turnStart = db.prepare<[string, string], { first_sequence: number }>(READ_SQL.turnStart);
  const nextTurnStart = db.prepare<[string, number], { first_sequence: number }>(
    READ_SQL.nextTurnStart,
  );
  // One statement per filter combination, prepared once (see `eventsSql`).
  const eventStatements = new Map<string, Database.Statement<(string | number)[], LedgerRowRaw>>();
  function eventStatement(byTurn: boolean, type: string | undefined, bySince: boolean) {
    const byType = type === undefined ? false : isIndexedRowType(type) ? "indexed" : "stream";
    const key = `${byTurn}:${byType}:${bySince}`;
    let statement = eventStatements.get(key);
    if (statement === undefined) {
      statement = db.prepare<(string | number)[], LedgerRowRaw>(
        eventsSql({ byTurn, byType, bySince }),
      );
      eventStatements.set(key, statement);
    }
    return statement;
  }

  /**
   * The sequences a turn's rows lie in: from its first row to the next turn's first row.
   * Turns never overlap (one prompt at a time per session, docs/ledger.md §1), so this
   * span plus `turn_id = ?` finds exactly the turn's rows without an index on turn_id.
   */
  function turnSpan(sessionId: string, turnId: string): { from: number; to: number } | undefined {
    const start = turnStart.get(sessionId, turnId);
    if (start === undefined) return undefined;
    const next = nextTurnStart.get(sessionId, start.first_sequence);
    return { from: start.first_sequence, to: next?.first_sequence ?? NO_UPPER_BOUND };
  }

  const epoch = Number(epochRow.get()?.value ?? 0);
  const epochJson = JSON.stringify(epoch);

  function ownerOf(sessionId: string): EventOwner {
    const row = ownerRow.get(sessionId);
    return { sessionId, agentName: row?.agent_name ?? "", workspaceId: row?.workspace_id ?? "" };
  }

  function maxSequence(sessionId: string): number {
    return newestSequence.get(sessionId) ?? 0;
  }

  /** The newest `limit` visible rows matching the filter, oldest first. */
  function matchingRows(sessionId: string, query: EventFilter): LedgerRowRaw[] {
    const range = filterRange(sessionId, query);
    if (range === undefined) return [];
    const turn = query.turn_id === undefined ? [] : [query.turn_id];
    const rows = eventStatement(
      query.turn_id !== undefined,
      query.type,
      query.since !== undefined,
    ).all(sessionId, range.after, range.before, ...turn, ...range.tail, query.limit);
    return rows.reverse();
  }

  function events(sessionId: string, query: EventFilter): EventList {
    const owner = ownerOf(sessionId);
    return { events: matchingRows(sessionId, query).map((row) => toEvent(owner, row)) };
  }

  const groupStatements = new Map<string, Database.Statement<(string | number)[], HistoryGroup>>();
  const groupRowStatements = new Map<
    string,
    Database.Statement<(string | number)[], LedgerRowRaw>
  >();

  /** The filter's range and parameters, as `matchingRows` reads them; undefined: nothing matches. */
  function filterRange(sessionId: string, query: EventFilter) {
    if (query.type !== undefined && isHiddenRowType(query.type)) return undefined;
    if (query.agent_name !== undefined && query.agent_name !== ownerOf(sessionId).agentName) {
      return undefined;
    }
    let after = query.after_sequence ?? 0;
    let before = NO_UPPER_BOUND;
    if (query.turn_id !== undefined) {
      const span = turnSpan(sessionId, query.turn_id);
      if (span === undefined) return undefined;
      after = Math.max(after, span.from - 1);
      before = span.to;
    }
    const tail: (string | number)[] = [];
    if (query.type !== undefined) tail.push(query.type);
    // Stored times are ISO UTC: a `since` in another offset is compared as the same instant.
    if (query.since !== undefined) tail.push(new Date(query.since).toISOString());
    return { after, before, tail };
  }

  /** History's newest `limit` groups, oldest first (ADR 0117). */
  function historyGroups(sessionId: string, query: EventFilter): HistoryGroup[] {
    const range = filterRange(sessionId, query);
    if (range === undefined) return [];
    const shape = {
      byTurn: query.turn_id !== undefined,
      byType: query.type !== undefined,
      bySince: query.since !== undefined,
    };
    const key = `${shape.byTurn}:${shape.byType}:${shape.bySince}`;
    let statement = groupStatements.get(key);
    if (statement === undefined) {
      statement = db.prepare<(string | number)[], HistoryGroup>(historyGroupsSql(shape));
      groupStatements.set(key, statement);
    }
    const turn = query.turn_id === undefined ? [] : [query.turn_id];
    return statement
      .all(sessionId, range.after, range.before, ...turn, ...range.tail, query.limit)
      .reverse();
  }

  /** Up to `limit` events of one history group after sequence `after`, oldest first. */
  function historyGroupEvents(
    sessionId: string,
    query: EventFilter,
    group: HistoryGroup,
    after: number,
    limit: number,
  ): DaemonSessionEvent[] {
    const range = filterRange(sessionId, query);
    if (range === undefined) return [];
    // A turn's rows lie in its span (turns never overlap); session-level rows anywhere.
    const span = group.turn_id === "" ? undefined : turnSpan(sessionId, group.turn_id);
    const from = Math.max(range.after, after, group.first_sequence - 1);
    const to = Math.min(range.before, span?.to ?? NO_UPPER_BOUND);
    const shape = { byType: query.type !== undefined, bySince: query.since !== undefined };
    const key = `${shape.byType}:${shape.bySince}`;
    let statement = groupRowStatements.get(key);
    if (statement === undefined) {
      statement = db.prepare<(string | number)[], LedgerRowRaw>(historyGroupRowsSql(shape));
      groupRowStatements.set(key, statement);
    }
    const owner = ownerOf(sessionId);
    return statement
      .all(sessionId, from, to, group.turn_id, ...range.tail, limit)
      .map((row) => toEvent(owner, row));
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
        generation: PROJECTION_GENERATION,
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
      let json = `{"entries":[${entries.join(",")}],"epoch":${epochJson},"generation":${PROJECTION_GENERATION},"max_sequence":${maxSequence(sessionId)},"has_older":${hasOlder},"limit":${JSON.stringify(limit)}`;
      if (hasOlder && oldest !== undefined) json += `,"next_before_sequence":${oldest[0]}`;
      return `${json}}`;
    },
    entriesChangedAfter(sessionId, cursor) {
      return changedRows
        .all(sessionId, cursor)
        .map(([start, sequence, message, entryKey]) =>
          toEntry([start, sequence, message, tails.tail(sessionId, entryKey, message)]),
        );
    },
    maxSequence,
    historyVersion() {
      return { epoch, generation: PROJECTION_GENERATION };
    },
    usage: usageReader.usage,
    usageTurns: usageReader.usageTurns,
    history(sessionId, query): History {
      const history = historyGroups(sessionId, query).map((group) => {
        const events: DaemonSessionEvent[] = [];
        let after = 0;
        for (;;) {
          const batch = historyGroupEvents(sessionId, query, group, after, HISTORY_BATCH);
          events.push(...batch);
          if (batch.length < HISTORY_BATCH) break;
          after = batch[batch.length - 1]?.sequence ?? after;
        }
        return { turn_id: group.turn_id, events };
      });
      return { history };
    },
    historyGroups,
    historyGroupEvents,
    promptAdmission(sessionId, idempotencyKey) {
      const row = admissionRow.get(sessionId, idempotencyKey);
      if (row === undefined) return undefined;
      return {
        idempotency_key: idempotencyKey,
        message_id: row.message_id,
        fingerprint: row.fingerprint,
        turn_id: row.turn_id,
        result: JSON.parse(row.result) as Record<string, unknown>,
      };
    },
    events,
    availableCommands(sessionId) {
      const row = newestOfType.get(sessionId, "available_commands");
      if (row === undefined) return [];
      return (JSON.parse(row.content) as { commands: AvailableCommand[] }).commands;
    },
    sessionSettings(sessionId) {
      const settings: SessionSettings = {};
      const parse = (row: LedgerRowRaw | undefined) =>
        row === undefined ? undefined : (JSON.parse(row.content) as Record<string, unknown>);
      const title = parse(newestOfType.get(sessionId, "session.title"));
      if (title !== undefined)
        settings.title = typeof title.title === "string" ? title.title : null;
      const modesRow = newestOfType.get(sessionId, "session.modes");
      const modeRow = newestOfType.get(sessionId, "session.mode");
      const configRow = newestOfType.get(sessionId, "session.config_options");
      const config = parse(configRow);
      if (config !== undefined) settings.config_options = config.config_options as ConfigOption[];
      if (modesRow !== undefined || modeRow !== undefined) {
        const modes = (parse(modesRow) as ModeState | undefined) ?? {
          current_mode_id: "",
          available_modes: [],
        };
        // The current mode is the newest word on it: a mode update, or the agent's `mode`
        // config option (Claude answers a mode change with config_option_update only).
        let newest = modesRow?.sequence ?? 0;
        if (modeRow !== undefined && modeRow.sequence > newest) {
          modes.current_mode_id = String(parse(modeRow)?.current_mode_id ?? "");
          newest = modeRow.sequence;
        }
        const modeOption = settings.config_options?.find((option) => option.category === "mode");
        if (configRow !== undefined && configRow.sequence > newest && modeOption?.current) {
          if (modes.available_modes.some((mode) => mode.id === modeOption.current)) {
            modes.current_mode_id = modeOption.current;
          }
        }
        settings.modes = modes;
      }
      // The newest reading only: Claude names the model in every usage_update.
      const usage = parse(newestOfType.get(sessionId, "usage"));
      const model =
        typeof usage?.model === "string"
          ? usage.model
          : settings.config_options?.find((option) => option.category === "model")?.current;
      if (model !== undefined && model !== "") settings.model = model;
      return settings;
    },
    unresolvedPermissions(sessionId) {
      const resolved = new Set(
        rowsOfType
          .all(sessionId, "permission.resolved")
          .map((row) => String((JSON.parse(row.content) as { request_id?: unknown }).request_id)),
      );
      return rowsOfType
        .all(sessionId, "permission.requested")
        .map((row) => {
          const content = JSON.parse(row.content) as { request_id: string; tool_call_id: string };
          return {
            request_id: content.request_id,
            tool_call_id: content.tool_call_id,
            turn_id: row.turn_id,
          };
        })
        .filter((request) => !resolved.has(request.request_id));
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
