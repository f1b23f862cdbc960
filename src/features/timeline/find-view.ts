// The find bar's pure logic: what the query is searched for, the matches among loaded
// entries when the daemon cannot search (CompozyOS), moving between matches, and the words
// to highlight in a rendered row (ADR 0231).
import {
  foldWord,
  SEARCH_QUERY_MAX_CHARS,
  searchableText,
  searchWords,
  textMatches,
} from "../../contract/search";
import type { Entry } from "../../contract/transcript";

export type FindMatch = { entry_id: string; start_sequence: number };

/** The query as the daemon would take it; `undefined` when there is nothing to search. */
export function findQuery(input: string): string | undefined {
  const q = input.slice(0, SEARCH_QUERY_MAX_CHARS);
  return searchWords(q).length === 0 ? undefined : q;
}

/** The daemon's rule applied to the loaded entries only, oldest first. */
export function loadedMatches(entries: readonly Entry[], q: string): FindMatch[] {
  const words = searchWords(q);
  return entries
    .filter((entry) => textMatches(searchableText(entry.message), words))
    .map((entry) => ({ entry_id: entry.message.id, start_sequence: entry.start_sequence }));
}

/** Enter moves down (newer), Shift+Enter up (older); both wrap. */
export function stepMatch(current: number, count: number, direction: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return direction === 1 ? 0 : count - 1;
  return (current + direction + count) % count;
}

export function countLabel(current: number, count: number): string {
  if (count === 0) return "No matches";
  if (current < 0) return count === 1 ? "1 match" : `${count} matches`;
  return `${current + 1} of ${count}`;
}

const WORD = /[\p{L}\p{N}\p{Co}]+/gu;

/** Where the query's words are in `text` ([start, end) offsets): a word, or the last as a prefix. */
export function wordRanges(text: string, words: readonly string[]): [number, number][] {
  if (words.length === 0) return [];
  const whole = new Set(words.slice(0, -1));
  const prefix = words[words.length - 1] as string;
  const ranges: [number, number][] = [];
  for (const match of text.matchAll(WORD)) {
    const folded = foldWord(match[0]);
    if (whole.has(folded) || folded === prefix) {
      ranges.push([match.index, match.index + match[0].length]);
    } else if (folded.startsWith(prefix)) {
      // A prefix match marks the typed part only, as far as it maps one to one.
      const length = match[0].length === folded.length ? prefix.length : match[0].length;
      ranges.push([match.index, match.index + length]);
    }
  }
  return ranges;
}
