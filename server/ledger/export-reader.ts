// The export's reads (ADR 0240): a session's entries and its ledger rows, oldest first, a
// batch at a time. Each batch is a fresh statement run (better-sqlite3 allows no cursor to
// stay open while the ledger writes), so an export of any length holds one batch.
import type Database from "better-sqlite3";
import type { DaemonEntry } from "../../src/contract/transcript";
import type { ExportReader } from "../domain/export-reader-api";
import { type EntryTuple, entryJson, type LedgerRowRaw, toEntry } from "./read-rows";
import { READ_SQL } from "./read-sql";

export function createExportReader(db: Database.Database): ExportReader {
  const entryRows = db
    .prepare<[string, number, number], EntryTuple>(READ_SQL.exportEntryRows)
    .raw(true);
  const ledgerRows = db.prepare<[string, number, number], LedgerRowRaw>(READ_SQL.exportLedgerRows);
  return {
    entriesJson(sessionId, afterStart, limit) {
      return entryRows
        .all(sessionId, afterStart, limit)
        .map((row) => ({ startSequence: row[0], json: entryJson(row) }));
    },
    entries(sessionId, afterStart, limit): DaemonEntry[] {
      return entryRows.all(sessionId, afterStart, limit).map(toEntry);
    },
    rowLines(sessionId, afterSequence, limit) {
      // The stored content is JSON.stringify output: spliced in as it is, not re-encoded.
      return ledgerRows.all(sessionId, afterSequence, limit).map((row) => ({
        sequence: row.sequence,
        line: `{"sequence":${row.sequence},"turn_id":${JSON.stringify(row.turn_id)},"type":${JSON.stringify(row.type)},"content":${row.content},"created_at":${JSON.stringify(row.created_at)}}`,
      }));
    },
  };
}
