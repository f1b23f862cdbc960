// The outcome of a compaction turn: the status of the newest compaction snapshot among
// the turn's events, not the first terminal one, so a correction before the turn ends
// (completed → failed) is what the user is told.

import type { SessionEvent } from "../src/contract/history";
import { isJsonObject, type JsonObject } from "../src/contract/json-value";
import { EXIT } from "./exit-codes";
import { cell } from "./output";

/** The turn ended and no compaction was reported in it (the agent sent no updates). */
const NOT_REPORTED = "not_reported";

export type CompactionOutcome = {
  outcome: string;
  compactionId?: string;
  error?: string;
};

type Content = JsonObject;
/** What the outcome reads of an event. */
type Snapshot = Pick<SessionEvent, "sequence" | "type" | "content">;

/** A snapshot's fields, whether the content carries them flat or under `raw`. */
function snapshotOf(event: Snapshot): Content | undefined {
  if (event.type !== "compaction" || !isJsonObject(event.content)) return undefined;
  const content = isJsonObject(event.content.raw) ? event.content.raw : event.content;
  return typeof content.status === "string" && content.status !== "" ? content : undefined;
}

export function compactionOutcome(events: readonly Snapshot[]): CompactionOutcome {
  let newest: { sequence: number; content: Content } | undefined;
  for (const event of events) {
    const content = snapshotOf(event);
    if (content !== undefined && (newest === undefined || event.sequence > newest.sequence)) {
      newest = { sequence: event.sequence, content };
    }
  }
  if (newest === undefined) return { outcome: NOT_REPORTED };
  const { status, compaction_id: id, error } = newest.content;
  return {
    outcome: String(status),
    ...(typeof id === "string" ? { compactionId: id } : {}),
    ...(typeof error === "string" && error !== "" ? { error } : {}),
  };
}

export function outcomeExitCode(outcome: string): number {
  if (outcome === "completed") return EXIT.ok;
  if (outcome === "failed" || outcome === "cancelled") return EXIT.compactionFailed;
  return EXIT.compactionUnconfirmed;
}

/** The human outcome line. */
export function outcomeLine(result: CompactionOutcome): string {
  switch (result.outcome) {
    case "completed":
      return "Compaction completed";
    case "failed":
      if (result.error === undefined) return "Compaction failed";
      {
        // The agent's words, on one line and without control bytes.
        const error = cell(result.error, 2000);
        // Agents often word the error as a whole sentence already ("Compaction failed: …").
        return /^compaction failed/i.test(error) ? error : `Compaction failed: ${error}`;
      }
    case "cancelled":
      return "Compaction cancelled";
    case NOT_REPORTED:
      return "No compaction reported: the turn ended without the agent reporting a compaction";
    default:
      return `The turn ended with the compaction still ${result.outcome}`;
  }
}
