// A word-level diff of two compaction summaries (Compare with the previous summary),
// shaped for display: long unchanged runs are elided to their edges, so two 1 MB
// summaries that differ in a few words render as those words in context, not 1 MB of DOM.
import { diffWords } from "diff";

export type SummaryDiffPart =
  | { kind: "same"; text: string; elided: number }
  | { kind: "added" | "removed"; text: string; elided: number };

export type SummaryDiff =
  | { kind: "diff"; parts: SummaryDiffPart[]; added: number; removed: number }
  | { kind: "too_different" };

/** Unchanged text kept on each side of a change. */
const CONTEXT_CHARS = 120;
/** One changed run longer than this shows its start and how much more it holds. */
const CHANGE_CHARS = 4_000;
/** Give up on a word diff past this (the summaries share too little to read as a diff). */
const MAX_EDIT_LENGTH = 5_000;
const TIMEOUT_MS = 2_000;

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function elideSame(text: string, first: boolean, last: boolean): SummaryDiffPart {
  const head = first ? 0 : CONTEXT_CHARS;
  const tail = last ? 0 : CONTEXT_CHARS;
  if (text.length <= head + tail + 40) return { kind: "same", text, elided: 0 };
  const start = text.slice(0, head);
  const end = text.slice(text.length - tail);
  return { kind: "same", text: `${start}…${end}`, elided: text.length - head - tail };
}

export function summaryDiff(before: string, after: string): SummaryDiff {
  const changes = diffWords(before, after, { maxEditLength: MAX_EDIT_LENGTH, timeout: TIMEOUT_MS });
  if (changes === undefined) return { kind: "too_different" };
  let added = 0;
  let removed = 0;
  const parts = changes.map((change, index): SummaryDiffPart => {
    if (!change.added && !change.removed) {
      return elideSame(change.value, index === 0, index === changes.length - 1);
    }
    const kind = change.added ? "added" : "removed";
    if (change.added) added += words(change.value);
    else removed += words(change.value);
    const elided = Math.max(0, change.value.length - CHANGE_CHARS);
    return {
      kind,
      text: elided > 0 ? `${change.value.slice(0, CHANGE_CHARS)}…` : change.value,
      elided,
    };
  });
  return { kind: "diff", parts, added, removed };
}
