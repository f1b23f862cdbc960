// Where a long agent reply is folded (ADR 0137): past ~40 lines or ~4,000 characters the
// row shows its start and "Show more". The cut falls on a paragraph break when one is near,
// and never inside a code fence (a half fence would turn the rest of the row into code).
const FOLD_MAX_LINES = 40;
const FOLD_MAX_CHARS = 4_000;

export type FoldedText =
  | { folded: false }
  | { folded: true; head: string; hiddenLines: number; hiddenChars: number };

const FENCE = /^\s{0,3}(```|~~~)/;

function lineCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count += 1;
  return count;
}

/** The offset just after line `lines` (or the end). */
function afterLines(text: string, lines: number): number {
  let at = -1;
  for (let seen = 0; seen < lines; seen += 1) {
    at = text.indexOf("\n", at + 1);
    if (at === -1) return text.length;
  }
  return at;
}

/** Moves a cut before an unclosed fence, so the head renders as the reply would. */
function outsideFences(head: string): string {
  const lines = head.split("\n");
  let openAt = -1;
  let offset = 0;
  for (const line of lines) {
    if (FENCE.test(line)) openAt = openAt === -1 ? offset : -1;
    offset += line.length + 1;
  }
  return openAt === -1 ? head : head.slice(0, openAt).trimEnd();
}

export function foldText(
  text: string,
  limits: { maxLines: number; maxChars: number } = {
    maxLines: FOLD_MAX_LINES,
    maxChars: FOLD_MAX_CHARS,
  },
): FoldedText {
  const total = lineCount(text);
  if (total <= limits.maxLines && text.length <= limits.maxChars) return { folded: false };
  let cut = Math.min(afterLines(text, limits.maxLines), limits.maxChars);
  // A paragraph break in the second half of the head is a better place to stop.
  const paragraph = text.lastIndexOf("\n\n", cut);
  if (paragraph > cut / 2) cut = paragraph;
  else {
    const line = text.lastIndexOf("\n", cut);
    if (line > cut / 2) cut = line;
  }
  let head = outsideFences(text.slice(0, cut).trimEnd());
  // A reply that opens with one huge code block: show its first lines rather than nothing.
  if (head === "") head = text.slice(0, cut).trimEnd();
  return {
    folded: true,
    head,
    hiddenLines: Math.max(0, total - lineCount(head)),
    hiddenChars: text.length - head.length,
  };
}

const number = new Intl.NumberFormat("en");

/** What "Show more" reveals: "12 more lines", or characters when it is one long line. */
export function hiddenLabel(fold: { hiddenLines: number; hiddenChars: number }): string {
  return fold.hiddenLines > 1
    ? `${number.format(fold.hiddenLines)} more lines`
    : `${number.format(fold.hiddenChars)} more characters`;
}
