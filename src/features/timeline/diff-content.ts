// An ACP `diff` tool-call content block, read defensively. Apart from diff-view.ts, so the
// rows that find diffs do not pull the `diff` package into the initial JS (ADR 0211).
import { asJsonObject } from "../../contract/json-value";

export type DiffContent = { path: string; oldText: string | null; newText: string };

/** A `{type: "diff", path, oldText, newText}` block, read defensively; else undefined. */
export function diffContentOf(block: unknown): DiffContent | undefined {
  const record = asJsonObject(block);
  if (record === undefined) return undefined;
  if (record.type !== "diff" || typeof record.newText !== "string") return undefined;
  const oldText = typeof record.oldText === "string" ? record.oldText : null;
  const path = typeof record.path === "string" && record.path !== "" ? record.path : "(no path)";
  return { path, oldText, newText: record.newText };
}
