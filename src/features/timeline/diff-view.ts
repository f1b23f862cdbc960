// An ACP `diff` tool-call content block as unified-diff lines with old/new line numbers.
// The `diff` package computes the hunks; this only numbers and bounds them. A diff whose
// `oldText` is null is a new file: every line is an addition.
import { structuredPatch } from "diff";
import type { DiffContent } from "./diff-content";

export type DiffLineKind = "added" | "removed" | "context" | "hunk" | "note";

export type DiffLine = {
  kind: DiffLineKind;
  /** The line's text without its +/−/space prefix. */
  text: string;
  oldNumber?: number;
  newNumber?: number;
};

export type DiffView = {
  path: string;
  newFile: boolean;
  added: number;
  removed: number;
  lines: DiffLine[];
  /** True when old and new text are the same: nothing to show but a sentence. */
  unchanged: boolean;
};

/** Above this much text (old + new) the diff is not computed: a line-by-line LCS is O(n·d). */
export const DIFF_MAX_CHARS = 400_000;

/** Lines of context around each change. */
const CONTEXT = 3;

export function buildDiffView(content: DiffContent): DiffView | "too-large" {
  const { path, oldText, newText } = content;
  if ((oldText?.length ?? 0) + newText.length > DIFF_MAX_CHARS) return "too-large";
  const newFile = oldText === null;
  if (oldText === newText) {
    return { path, newFile, added: 0, removed: 0, lines: [], unchanged: true };
  }
  const patch = structuredPatch(path, path, oldText ?? "", newText, "", "", { context: CONTEXT });
  const lines: DiffLine[] = [];
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    lines.push({
      kind: "hunk",
      text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
    });
    let oldNumber = hunk.oldStart;
    let newNumber = hunk.newStart;
    for (const raw of hunk.lines) {
      const sign = raw[0];
      const text = raw.slice(1);
      if (sign === "+") {
        lines.push({ kind: "added", text, newNumber });
        newNumber += 1;
        added += 1;
      } else if (sign === "-") {
        lines.push({ kind: "removed", text, oldNumber });
        oldNumber += 1;
        removed += 1;
      } else if (sign === "\\") {
        lines.push({ kind: "note", text: text.trim() });
      } else {
        lines.push({ kind: "context", text, oldNumber, newNumber });
        oldNumber += 1;
        newNumber += 1;
      }
    }
  }
  return { path, newFile, added, removed, lines, unchanged: false };
}

/** "+3 −1", or "new file, 12 lines". */
export function diffSummary(view: DiffView): string {
  if (view.unchanged) return "no changes";
  if (view.newFile) return `new file, ${view.added} ${view.added === 1 ? "line" : "lines"}`;
  return `+${view.added} −${view.removed}`;
}

/** What a screen reader hears before a line, since colour and the sign alone are not enough. */
export const LINE_LABEL: Record<DiffLineKind, string> = {
  added: "added",
  removed: "removed",
  context: "unchanged",
  hunk: "",
  note: "",
};
