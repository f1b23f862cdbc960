// Pure reading of the cached transcript for the timeline: where the newest completed
// compaction sits (the "Earlier turns were summarized" boundary) and the usage markers by
// compaction id (for the before → after figures).

import type { CompactionMarkerView, UsageTurnsView } from "../../api/usage-queries";
import { compactionOf, type Entry } from "../../contract/transcript";

/** Index of the newest completed compaction entry, or -1. */
export function summaryBoundaryIndex(entries: readonly Entry[]): number {
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index];
    if (entry && compactionOf(entry)?.status === "completed") return index;
  }
  return -1;
}

export function markersById(
  turns: UsageTurnsView | null,
): ReadonlyMap<string, CompactionMarkerView> {
  return new Map((turns?.compactions ?? []).map((marker) => [marker.compaction_id, marker]));
}

/** Consecutive agent entries (text, thinking, tools of one reply) share one "Agent" label. */
export function showsSpeaker(entries: readonly Entry[], index: number): boolean {
  const role = entries[index]?.message.role;
  if (role !== "assistant") return true;
  return entries[index - 1]?.message.role !== "assistant";
}

/** Index of the entry starting at `startSequence` (entries are sorted by it), or -1. */
export function indexOfStartSequence(entries: readonly Entry[], startSequence: number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((entries[mid]?.start_sequence ?? Number.POSITIVE_INFINITY) < startSequence) low = mid + 1;
    else high = mid;
  }
  return entries[low]?.start_sequence === startSequence ? low : -1;
}
