// The read forms of stored rows, shared by the session reader and the export: an entry
// row as a DaemonEntry or straight as its JSON text, and a ledger row as a session event.
import {
  COMPACTION_FIRED_EVENT,
  type DaemonSessionEvent,
  EVENT_SCHEMA,
} from "../../src/contract/history";
import type { DaemonEntry, DaemonMessage } from "../../src/contract/transcript";
import { withTail } from "../domain/transcript-fold";

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
export type EventOwner = { sessionId: string; agentName: string; workspaceId: string };

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
