// Reads what the compaction audit needs from the ledger's transcript projection, and nothing
// more: the compaction's entry, the entries of its span (after the previous completed
// compaction), the previous span for "summary against summary", pinned messages from before,
// and the turn ids in order for numbering. The session is never loaded whole.
import type Database from "better-sqlite3";
import { auditCompaction } from "../../src/audit/audit";
import type { AuditedCompaction } from "../../src/audit/types";
import type { CompactionItem, DaemonMessage, Entry } from "../../src/contract/transcript";
import type { AuditReader } from "../domain/session-recorder-api";
import { withTail } from "../domain/transcript-fold";
import { READ_SQL } from "./read-sql";

type Boundary = { start: number; compaction: AuditedCompaction };
type EntryTuple = [number, number, string, string | null];

function compactionOfMessage(message: DaemonMessage): CompactionItem | undefined {
  const part = message.parts[0];
  return part?.type === "data-compozy-compaction" ? part.data : undefined;
}

export function createAuditReader(db: Database.Database): AuditReader {
  const compactionEntry = db.prepare<[string, string], { start_sequence: number; message: string }>(
    `SELECT start_sequence, message FROM entries
     WHERE session_id = ? AND entry_key = ? AND kind = 'compaction'`,
  );
  // Walking back through the compactions table (few rows, its own index) instead of the
  // entries: a first compaction deep in a long session would otherwise scan every entry.
  const earlierCompactions = db
    .prepare<[string, number], string>(
      `SELECT compaction_id FROM compactions WHERE session_id = ? AND first_sequence < ?
       ORDER BY first_sequence DESC`,
    )
    .pluck(true);
  const spanRows = db.prepare<[string, number, number], EntryTuple>(READ_SQL.spanRows).raw(true);
  const entryByKey = db
    .prepare<[string, string], EntryTuple>(
      `SELECT e.start_sequence, e.sequence, e.message, NULL FROM entries e
     WHERE e.session_id = ? AND e.entry_key = ? AND e.kind = 'user'`,
    )
    .raw(true);
  const turnIds = db
    .prepare<[string], string>(
      "SELECT turn_id FROM turns WHERE session_id = ? ORDER BY first_sequence",
    )
    .pluck(true);

  function toEntry(row: EntryTuple): Entry {
    return {
      message: withTail(JSON.parse(row[2]) as DaemonMessage, row[3]),
      start_sequence: row[0],
      sequence: row[1],
    };
  }

  /** The newest completed compaction before `sequence`: the span's lower boundary. */
  function boundaryBefore(sessionId: string, sequence: number): Boundary | undefined {
    for (const compactionId of earlierCompactions.all(sessionId, sequence)) {
      const row = compactionEntry.get(sessionId, `compaction-${compactionId}`);
      if (row === undefined || row.start_sequence >= sequence) continue;
      const message = JSON.parse(row.message) as DaemonMessage;
      const item = compactionOfMessage(message);
      // The entry's folded status is the truth (a completed compaction corrected to failed).
      if (item?.status === "completed") {
        return { start: row.start_sequence, compaction: { item, entry_id: message.id } };
      }
    }
    return undefined;
  }

  function span(sessionId: string, after: number, before: number): Entry[] {
    return spanRows.all(sessionId, after, before).map(toEntry);
  }

  return {
    audit(sessionId, compactionId, pinnedEntryIds) {
      const row = compactionEntry.get(sessionId, `compaction-${compactionId}`);
      if (row === undefined) return undefined;
      const message = JSON.parse(row.message) as DaemonMessage;
      const item = compactionOfMessage(message);
      if (item === undefined) return undefined;
      const previous = boundaryBefore(sessionId, row.start_sequence);
      const entries = span(sessionId, previous?.start ?? 0, row.start_sequence);
      const beforePrevious =
        previous === undefined ? undefined : boundaryBefore(sessionId, previous.start);
      const previousEntries =
        previous === undefined ? [] : span(sessionId, beforePrevious?.start ?? 0, previous.start);
      const inSpan = new Set(entries.map((entry) => entry.message.id));
      // Pins of messages before the span: read one by one (a person pins a few).
      const pinnedEntries = pinnedEntryIds
        .filter((id) => !inSpan.has(id))
        .map((id) => entryByKey.get(sessionId, id))
        .filter(
          (found): found is EntryTuple => found !== undefined && found[0] < row.start_sequence,
        )
        .map(toEntry);
      const numbers = new Map(turnIds.all(sessionId).map((turnId, index) => [turnId, index + 1]));
      return auditCompaction({
        session_id: sessionId,
        entries,
        compaction: { item, entry_id: message.id },
        previous:
          previous === undefined
            ? undefined
            : { compaction: previous.compaction, entries: previousEntries },
        turn_numbers: numbers,
        pinned_entry_ids: pinnedEntryIds,
        pinned_entries: pinnedEntries,
      });
    },
  };
}
