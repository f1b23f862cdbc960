import { describe, expect, it } from "vitest";
import { diffContentOf } from "./diff-content";
import { buildDiffView, DIFF_MAX_CHARS, diffSummary } from "./diff-view";

describe("diffContentOf", () => {
  it("when the block is an ACP diff, then path, oldText and newText are kept", () => {
    expect(diffContentOf({ type: "diff", path: "/a.ts", oldText: "x", newText: "y" })).toEqual({
      path: "/a.ts",
      oldText: "x",
      newText: "y",
    });
  });

  it("when oldText is null or absent, then it is a new file (oldText null)", () => {
    expect(
      diffContentOf({ type: "diff", path: "/n.ts", oldText: null, newText: "y" })?.oldText,
    ).toBe(null);
    expect(diffContentOf({ type: "diff", path: "/n.ts", newText: "y" })?.oldText).toBe(null);
  });

  it("when the block is hostile or not a diff, then it is not read as one", () => {
    for (const block of [
      null,
      "diff",
      [],
      { type: "diff" },
      { type: "diff", path: "/a", newText: 42 },
      { type: "content", content: { type: "text", text: "x" } },
    ]) {
      expect(diffContentOf(block)).toBeUndefined();
    }
    expect(diffContentOf({ type: "diff", path: 7, newText: "" })?.path).toBe("(no path)");
  });
});

describe("buildDiffView", () => {
  it("when one line changes, then the hunk numbers old and new lines and marks -/+", () => {
    const view = buildDiffView({
      path: "a.txt",
      oldText: "one\ntwo\nthree\n",
      newText: "one\n2\nthree\n",
    });
    if (view === "too-large") throw new Error("unexpected");
    expect(view.added).toBe(1);
    expect(view.removed).toBe(1);
    expect(view.lines).toEqual([
      { kind: "hunk", text: "@@ -1,3 +1,3 @@" },
      { kind: "context", text: "one", oldNumber: 1, newNumber: 1 },
      { kind: "removed", text: "two", oldNumber: 2 },
      { kind: "added", text: "2", newNumber: 2 },
      { kind: "context", text: "three", oldNumber: 3, newNumber: 3 },
    ]);
    expect(diffSummary(view)).toBe("+1 −1");
  });

  it("when oldText is null, then every line is added and it reads as a new file", () => {
    const view = buildDiffView({ path: "new.md", oldText: null, newText: "# Hi\n\nthere\n" });
    if (view === "too-large") throw new Error("unexpected");
    expect(view.newFile).toBe(true);
    expect(
      view.lines.filter((line) => line.kind === "added").map((line) => line.newNumber),
    ).toEqual([1, 2, 3]);
    expect(view.removed).toBe(0);
    expect(diffSummary(view)).toBe("new file, 3 lines");
  });

  it("when a change is far from another, then they are separate hunks with 3 lines of context", () => {
    const old = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n");
    const next = old.replace("line 2\n", "LINE 2\n").replace("line 28", "LINE 28");
    const view = buildDiffView({ path: "f", oldText: old, newText: next });
    if (view === "too-large") throw new Error("unexpected");
    const hunks = view.lines.filter((line) => line.kind === "hunk").map((line) => line.text);
    expect(hunks).toEqual(["@@ -1,5 +1,5 @@", "@@ -25,6 +25,6 @@"]);
  });

  it("when the file lacks a final newline, then the note is its own line, not a change", () => {
    const view = buildDiffView({ path: "f", oldText: "a", newText: "b" });
    if (view === "too-large") throw new Error("unexpected");
    expect(view.lines.filter((line) => line.kind === "note")[0]?.text).toBe(
      "No newline at end of file",
    );
    expect(view.added).toBe(1);
    expect(view.removed).toBe(1);
  });

  it("when old and new are equal, then it says no changes", () => {
    const view = buildDiffView({ path: "f", oldText: "same", newText: "same" });
    if (view === "too-large") throw new Error("unexpected");
    expect(view.unchanged).toBe(true);
    expect(diffSummary(view)).toBe("no changes");
  });

  it("when the texts are enormous, then the diff is not computed", () => {
    expect(
      buildDiffView({ path: "f", oldText: null, newText: "x".repeat(DIFF_MAX_CHARS + 1) }),
    ).toBe("too-large");
  });
});
