// The export's reads (ADR 0240), as the ledger offers them.
import type { DaemonEntry } from "../../src/contract/transcript";

/** A session's entries and rows, oldest first, one batch at a time (the export, ADR 0240). */
export interface ExportReader {
  /** Entries after `afterStart` (a start sequence) as JSON text, oldest first. */
  entriesJson(
    sessionId: string,
    afterStart: number,
    limit: number,
  ): { startSequence: number; json: string }[];
  entries(sessionId: string, afterStart: number, limit: number): DaemonEntry[];
  /** Ledger rows after `afterSequence` as JSONL lines, summary chunks left out. */
  rowLines(
    sessionId: string,
    afterSequence: number,
    limit: number,
  ): { sequence: number; line: string }[];
}
