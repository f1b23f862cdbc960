// The transcript as the SPA caches it: one ordered list of entries (by `start_sequence`)
// plus the stream cursor and the paging boundary. HTTP pages, stream snapshots and deltas
// all fold into it through these pure functions; an `epoch`/`generation` change means the
// history was rewritten, so the caller must drop the cache and start again.

import {
  applyEntryAppend,
  type EntryAppendEvent,
  type TranscriptDeltaEvent,
  type TranscriptSnapshotEvent,
} from "../contract/stream";
import type { Entry, TranscriptPage } from "../contract/transcript";
import { partitionPoint } from "../lib/partition-point";

export type TranscriptData = {
  epoch: TranscriptPage["epoch"];
  generation: TranscriptPage["generation"];
  /** Sorted by `start_sequence`, one entry per `start_sequence`. */
  entries: readonly Entry[];
  /** The newest ledger sequence already reflected here: where a stream resumes. */
  cursor: number;
  hasOlder: boolean;
  nextBeforeSequence: number | undefined;
};

export type FoldResult = { kind: "ok"; data: TranscriptData } | { kind: "reset" };
/** `gap`: an append did not fit what is cached; something was missed, read again. */
export type AppendFoldResult = FoldResult | { kind: "gap" };

function indexOfStart(entries: readonly Entry[], startSequence: number): number {
  return partitionPoint(entries, (entry) => entry.start_sequence >= startSequence);
}

/**
 * Upserts `incoming` into `stored`, keyed by `start_sequence`: an incoming entry replaces
 * the stored one when its `sequence` is greater or equal. Returns `stored` itself when
 * nothing changed, so React skips the render.
 */
export function mergeEntries(
  stored: readonly Entry[],
  incoming: readonly Entry[],
): readonly Entry[] {
  // A page (hundreds of entries, sorted) is merged in one linear pass: inserting it entry
  // by entry spliced the whole cache once per entry (O(n·m), long tasks on older pages).
  if (incoming.length > 8 && isSorted(incoming)) return mergeSorted(stored, incoming);
  let result: Entry[] | undefined;
  for (const entry of incoming) {
    const list: readonly Entry[] = result ?? stored;
    const at = indexOfStart(list, entry.start_sequence);
    const existing = list[at];
    if (existing?.start_sequence === entry.start_sequence) {
      if (entry.sequence < existing.sequence) continue;
      result ??= [...stored];
      result[at] = entry;
    } else {
      result ??= [...stored];
      result.splice(at, 0, entry);
    }
  }
  return result ?? stored;
}

function isSorted(entries: readonly Entry[]): boolean {
  for (let index = 1; index < entries.length; index += 1) {
    const previous = entries[index - 1];
    const entry = entries[index];
    if (previous && entry && previous.start_sequence > entry.start_sequence) return false;
  }
  return true;
}

/** `mergeEntries` for an `incoming` list sorted by `start_sequence`: same result, O(n + m). */
function mergeSorted(stored: readonly Entry[], incoming: readonly Entry[]): readonly Entry[] {
  const result: Entry[] = [];
  let changed = false;
  let at = 0;
  for (const entry of incoming) {
    while (at < stored.length && (stored[at] as Entry).start_sequence < entry.start_sequence) {
      result.push(stored[at] as Entry);
      at += 1;
    }
    const last = result[result.length - 1];
    if (last !== undefined && last.start_sequence === entry.start_sequence) {
      // A repeated start in `incoming`: the later one wins unless it is older.
      if (entry.sequence >= last.sequence) {
        result[result.length - 1] = entry;
        changed = true;
      }
      continue;
    }
    const existing = stored[at];
    if (existing !== undefined && existing.start_sequence === entry.start_sequence) {
      at += 1;
      if (entry.sequence < existing.sequence) {
        result.push(existing);
        continue;
      }
    }
    result.push(entry);
    changed = true;
  }
  if (!changed) return stored;
  while (at < stored.length) {
    result.push(stored[at] as Entry);
    at += 1;
  }
  return result;
}

function sameHistory(
  data: TranscriptData,
  epoch: TranscriptData["epoch"],
  generation: TranscriptData["generation"],
): boolean {
  return data.epoch === epoch && data.generation === generation;
}

function oldestStart(entries: readonly Entry[]): number | undefined {
  return entries[0]?.start_sequence;
}

type NewestPage = Pick<
  TranscriptPage,
  "entries" | "epoch" | "generation" | "max_sequence" | "has_older" | "next_before_sequence"
>;

/**
 * The newest page (an HTTP read or a stream snapshot). Against a different history it
 * replaces the cache; against the same one it merges, keeping any older pages already
 * loaded and never moving the cursor backwards.
 */
export function foldNewestPage(
  current: TranscriptData | undefined,
  page: NewestPage | TranscriptSnapshotEvent,
): TranscriptData {
  const fresh: TranscriptData = {
    epoch: page.epoch,
    generation: page.generation,
    entries: mergeEntries([], page.entries),
    cursor: page.max_sequence,
    hasOlder: page.has_older,
    nextBeforeSequence: page.next_before_sequence ?? oldestStart(page.entries),
  };
  if (!current || !sameHistory(current, page.epoch, page.generation)) return fresh;
  const entries = mergeEntries(current.entries, page.entries);
  const currentOldest = oldestStart(current.entries);
  const pageOldest = oldestStart(page.entries);
  const keepCurrentBoundary =
    currentOldest !== undefined && (pageOldest === undefined || currentOldest < pageOldest);
  return {
    ...current,
    entries,
    cursor: Math.max(current.cursor, page.max_sequence),
    ...(keepCurrentBoundary
      ? {}
      : { hasOlder: fresh.hasOlder, nextBeforeSequence: fresh.nextBeforeSequence }),
  };
}

/** An older page (`before_sequence`): merged below what is loaded. */
export function foldOlderPage(
  current: TranscriptData | undefined,
  page: TranscriptPage,
): FoldResult {
  if (!current) return { kind: "ok", data: foldNewestPage(undefined, page) };
  if (!sameHistory(current, page.epoch, page.generation)) return { kind: "reset" };
  return {
    kind: "ok",
    data: {
      ...current,
      entries: mergeEntries(current.entries, page.entries),
      hasOlder: page.has_older,
      nextBeforeSequence: page.next_before_sequence ?? oldestStart(page.entries),
    },
  };
}

/** A live delta: upserts, and moves the cursor forward. */
export function foldDelta(
  current: TranscriptData | undefined,
  delta: TranscriptDeltaEvent,
): FoldResult {
  if (!current) return { kind: "reset" };
  if (!sameHistory(current, delta.epoch, delta.generation)) return { kind: "reset" };
  const entries = mergeEntries(current.entries, delta.entries);
  const cursor = Math.max(current.cursor, delta.cursor);
  if (entries === current.entries && cursor === current.cursor)
    return { kind: "ok", data: current };
  return { kind: "ok", data: { ...current, entries, cursor } };
}

/**
 * A live append (ADR 0200): the entry it names grows by its text. A gap when the entry is
 * not cached or its string is not the length the daemon grew it from.
 */
export function foldAppend(
  current: TranscriptData | undefined,
  append: EntryAppendEvent,
): AppendFoldResult {
  if (!current) return { kind: "reset" };
  const at = indexOfStart(current.entries, append.start_sequence);
  const held = current.entries[at];
  const applied =
    held?.start_sequence === append.start_sequence ? applyEntryAppend(held, append) : undefined;
  if (applied === undefined) return { kind: "gap" };
  const cursor = Math.max(current.cursor, append.cursor ?? 0);
  if (applied === held && cursor === current.cursor) return { kind: "ok", data: current };
  let entries = current.entries;
  if (applied !== held) {
    const copy = [...current.entries];
    copy[at] = applied;
    entries = copy;
  }
  return { kind: "ok", data: { ...current, entries, cursor } };
}

/** Where a (re)connecting stream resumes: the cursor and the fence of the history it belongs to. */
export type StreamResume = {
  afterSequence: number;
  epoch: TranscriptData["epoch"];
  generation: TranscriptData["generation"];
};

/** Where a (re)connecting stream starts: after the cursor behind its fence, or a fresh snapshot. */
export function resumeCursor(current: TranscriptData | undefined): StreamResume | undefined {
  if (!current) return undefined;
  return { afterSequence: current.cursor, epoch: current.epoch, generation: current.generation };
}

/** Reconnect delay: doubling from 0.5 s to 8 s, with up to 50 % jitter taken off. */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(8_000, 500 * 2 ** Math.max(0, attempt));
  return Math.round(ceiling * (0.5 + random() * 0.5));
}
