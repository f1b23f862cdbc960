// Marks the query's words in the rendered rows with the CSS Custom Highlight API (ADR
// 0231): no DOM is changed, so React's rows and the virtualizer's measurements stay as
// they are. Where the API is missing, the current row's outline still shows the match.
import { wordRanges } from "./find-view";

const ALL = "tideline-find";
const CURRENT = "tideline-find-current";

type Registry = { set(name: string, value: unknown): void; delete(name: string): void };

function registry(): Registry | undefined {
  const css = globalThis.CSS as unknown as { highlights?: Registry } | undefined;
  const Highlight = (globalThis as { Highlight?: unknown }).Highlight;
  return css?.highlights !== undefined && typeof Highlight === "function"
    ? css.highlights
    : undefined;
}

function rangesIn(root: Element, words: readonly string[]): Range[] {
  const ranges: Range[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = node.textContent ?? "";
    for (const [start, end] of wordRanges(text, words)) {
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, end);
      ranges.push(range);
    }
  }
  return ranges;
}

/** Highlights `words` in every row under `scroller`, the current entry's row apart. */
export function paintFindHighlights(
  scroller: Element,
  words: readonly string[],
  currentId: string | undefined,
): void {
  const highlights = registry();
  if (highlights === undefined) return;
  const Highlight = (globalThis as unknown as { Highlight: new (...ranges: Range[]) => unknown })
    .Highlight;
  const all: Range[] = [];
  const current: Range[] = [];
  for (const row of scroller.querySelectorAll<HTMLElement>("[data-entry-id]")) {
    const ranges = rangesIn(row, words);
    if (row.dataset.entryId === currentId) current.push(...ranges);
    else all.push(...ranges);
  }
  highlights.set(ALL, new Highlight(...all));
  highlights.set(CURRENT, new Highlight(...current));
}

export function clearFindHighlights(): void {
  const highlights = registry();
  highlights?.delete(ALL);
  highlights?.delete(CURRENT);
}
