// One vocabulary for a compaction's state, shared by the timeline row, the announcements,
// the turns list, the chart and its data table, and the meter. The daemon has three
// terminal statuses; "interrupted" is a cancelled compaction the daemon closed because the
// agent exited (its `error` says so), which people read as a different thing from a Stop.
// Per compaction id, the transcript's copy of the state is the freshest (it moves frame by
// frame; usage markers are re-read a second later), so the other surfaces follow it.
import { compactionOf, type Entry } from "../contract/transcript";

export type CompactionState = "in_progress" | "completed" | "failed" | "cancelled" | "interrupted";

/** The state word wherever a compaction is listed ("You pressed Compact now · failed"). */
const STATE_WORDS: Record<CompactionState, string> = {
  in_progress: "in progress",
  completed: "completed",
  failed: "failed",
  cancelled: "cancelled",
  interrupted: "interrupted",
};

/** A cancelled compaction the daemon closed because the agent went away. */
export function isInterrupted(item: { status: string; error?: string | undefined }): boolean {
  return item.status === "cancelled" && /agent exited/i.test(item.error ?? "");
}

/** The state of a compaction from its status (and error); a vendor status stays as it is. */
export function compactionState(item: {
  status: string;
  error?: string | undefined;
}): CompactionState | string {
  return isInterrupted(item) ? "interrupted" : item.status;
}

/** The word for a state; a vendor status reads as itself (it is still in progress). */
export function stateWord(state: CompactionState | string): string {
  return Object.hasOwn(STATE_WORDS, state) ? STATE_WORDS[state as CompactionState] : state;
}

/**
 * The failure's own words, without the agent's habit of restating the outcome first
 * ("Compaction failed: context too small" → "context too small"): the row already says
 * "failed". Undefined when nothing is left.
 */
export function failureDetail(error: string | undefined): string | undefined {
  const trimmed = error?.trim();
  if (!trimmed) return undefined;
  const rest = trimmed.replace(/^(context\s+)?compaction\s+failed\s*[:—–-]?\s*/i, "").trim();
  return rest === "" ? undefined : rest;
}

/** What the transcript says of each compaction, by id: its state and (failed) detail. */
type TranscriptCompaction = { state: CompactionState | string };
export type TranscriptCompactions = Readonly<Record<string, TranscriptCompaction>>;

/**
 * Compaction id → its state in the loaded transcript. A plain object, so a query's
 * structural sharing keeps it identical while nothing changed.
 */
export function transcriptCompactions(entries: readonly Entry[]): TranscriptCompactions {
  const states: Record<string, TranscriptCompaction> = {};
  for (const entry of entries) {
    const item = compactionOf(entry);
    if (item) states[item.compaction_id] = { state: compactionState(item) };
  }
  return states;
}

/** Whether a compaction is running now, by the transcript: the newest one has not ended. */
export function compactionRunning(entries: readonly Entry[]): boolean {
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const item = compactionOf(entries[index] as Entry);
    if (item) return !isEnded(compactionState(item));
  }
  return false;
}

function isEnded(state: string): boolean {
  return (
    state === "completed" || state === "failed" || state === "cancelled" || state === "interrupted"
  );
}
