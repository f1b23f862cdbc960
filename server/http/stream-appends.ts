// Append frames (ADR 0200, a Tideline extension a client asks for with `tideline_append`):
// when an entry only grew at the end of its strings since the version a subscriber holds,
// the subscriber gets the new text (`entry_append`) instead of the whole entry again, so a
// slowly streamed reply costs its own bytes on the wire rather than quadratic ones.
//
// "Only grew" is decided per part against the entry as this subscriber last received it:
// the same parts in the same order, every one deep-equal except, in a part of a kind that
// grows (text and reasoning `text`, a tool part's `output` strings), one string that starts
// with what it was. Anything else (a part changed in place, a new part, a correction) is
// the whole entry, as before.

import { isJsonObject } from "../../src/contract/json-value";
import type { DaemonEntry } from "../../src/contract/transcript";

export type Growth = { part: number; path: readonly string[]; offset: number; text: string };

/** What an appending subscriber holds: the entries as it last received them. */
export type AppendState = {
  bases: Map<number, DaemonEntry>;
  /** When a thin batch was first held back for this subscriber (`performance.now()`). */
  heldSince: number | undefined;
};

/** Entries kept per subscriber; older ones fall back to whole-entry frames. */
export const MAX_BASES = 64;

export function createAppendState(): AppendState {
  return { bases: new Map(), heldSince: undefined };
}

export function rememberEntries(state: AppendState, entries: readonly DaemonEntry[]): void {
  for (const entry of entries) {
    state.bases.delete(entry.start_sequence);
    state.bases.set(entry.start_sequence, entry);
  }
  while (state.bases.size > MAX_BASES) {
    state.bases.delete(state.bases.keys().next().value as number);
  }
}

type Json = unknown;

/** JSON equality that also requires the same key order (the client rebuilds the same bytes). */
export function sameJson(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => sameJson(item, b[index]));
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  if (keys.length !== otherKeys.length) return false;
  return keys.every((key, index) => key === otherKeys[index] && sameJson(a[key], b[key]));
}

type StringGrowth = { path: string[]; offset: number; text: string };

/**
 * `next` is `base` with exactly one string grown at its end: that string's path and the
 * new text. "same" when they are equal; undefined for any other difference.
 */
function grownString(base: Json, next: Json, path: string[]): StringGrowth | "same" | undefined {
  if (base === next) return "same";
  if (typeof base === "string" && typeof next === "string") {
    if (next.length <= base.length || !next.startsWith(base)) return undefined;
    return { path, offset: base.length, text: next.slice(base.length) };
  }
  if (!isJsonObject(base) || !isJsonObject(next)) return sameJson(base, next) ? "same" : undefined;
  const keys = Object.keys(base);
  const nextKeys = Object.keys(next);
  if (keys.length !== nextKeys.length) return undefined;
  let found: StringGrowth | undefined;
  for (const [index, key] of keys.entries()) {
    if (key !== nextKeys[index]) return undefined;
    const inner = grownString(base[key], next[key], [...path, key]);
    if (inner === undefined) return undefined;
    if (inner === "same") continue;
    if (found !== undefined) return undefined;
    found = inner;
  }
  return found ?? "same";
}

function isToolPart(type: unknown): boolean {
  return typeof type === "string" && (type.startsWith("tool-") || type === "dynamic-tool");
}

/** One part's growth, only where parts of its kind grow; "same" when it did not change. */
function partGrowth(base: Json, next: Json): StringGrowth | "same" | undefined {
  if (base === next) return "same";
  if (!isJsonObject(base) || !isJsonObject(next) || base.type !== next.type) return undefined;
  const growth = grownString(base, next, []);
  if (growth === undefined || growth === "same") return growth;
  const [field] = growth.path;
  if ((base.type === "text" || base.type === "reasoning") && growth.path.length === 1) {
    return field === "text" ? growth : undefined;
  }
  return isToolPart(base.type) && field === "output" ? growth : undefined;
}

/**
 * How `next` grew from `base` (the same entry, as the subscriber holds it): one growth per
 * part that grew, or undefined when the whole entry must be sent.
 */
export function growthOf(base: DaemonEntry, next: DaemonEntry): Growth[] | undefined {
  if (base.start_sequence !== next.start_sequence || next.sequence <= base.sequence) {
    return undefined;
  }
  const { parts: baseParts, ...baseRest } = base.message;
  const { parts: nextParts, ...nextRest } = next.message;
  if (baseParts.length !== nextParts.length || !sameJson(baseRest, nextRest)) return undefined;
  const growths: Growth[] = [];
  for (const [index, part] of nextParts.entries()) {
    const growth = partGrowth(baseParts[index], part);
    if (growth === undefined) return undefined;
    if (growth !== "same") growths.push({ part: index, ...growth });
  }
  return growths.length > 0 ? growths : undefined;
}

/** The `entry_append` data of one growth, in the documented key order. */
export function appendData(entry: DaemonEntry, growth: Growth, cursor?: number) {
  const isDefaultPath = growth.path.length === 1 && growth.path[0] === "text";
  return {
    start_sequence: entry.start_sequence,
    sequence: entry.sequence,
    part: growth.part,
    ...(isDefaultPath ? {} : { path: growth.path }),
    offset: growth.offset,
    text: growth.text,
    ...(cursor === undefined ? {} : { cursor }),
  };
}

/** What one subscriber is sent for a batch of changed entries. */
export type AppendPlan = {
  appends: { entry: DaemonEntry; growths: Growth[] }[];
  whole: DaemonEntry[];
  /** Characters of new text the appends carry. */
  appendedChars: number;
  /** Characters of the grown strings compared to find them (what the batch cost to plan). */
  comparedChars: number;
};

/**
 * Plans a batch for many subscribers at once: subscribers holding the same versions (the
 * usual case: they read the same frames) share one plan, keyed by `signature`.
 */
export function createPlanner(changed: readonly DaemonEntry[]) {
  const memo = changed.map(() => new Map<DaemonEntry | undefined, Growth[] | undefined>());
  return (state: AppendState): { signature: string; plan: AppendPlan } => {
    const plan: AppendPlan = { appends: [], whole: [], appendedChars: 0, comparedChars: 0 };
    const slots: number[] = [];
    for (const [index, entry] of changed.entries()) {
      const cache = memo[index] as Map<DaemonEntry | undefined, Growth[] | undefined>;
      const base = state.bases.get(entry.start_sequence);
      if (!cache.has(base)) cache.set(base, base === undefined ? undefined : growthOf(base, entry));
      slots.push([...cache.keys()].indexOf(base));
      const growths = cache.get(base);
      if (growths === undefined) {
        plan.whole.push(entry);
        continue;
      }
      plan.appends.push({ entry, growths });
      for (const growth of growths) {
        plan.appendedChars += growth.text.length;
        plan.comparedChars += growth.offset;
      }
    }
    return { signature: slots.join(","), plan };
  };
}
