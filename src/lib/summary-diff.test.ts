import { describe, expect, it } from "vitest";
import { summaryDiff } from "./summary-diff";

describe("summaryDiff", () => {
  it("when a word changed, then the diff marks the removed and the added word and keeps the rest", () => {
    const diff = summaryDiff(
      "Edit src/auth.ts then run tests.",
      "Edit src/billing.ts then run tests.",
    );
    expect(diff.kind).toBe("diff");
    if (diff.kind !== "diff") return;
    expect(diff.parts.filter((part) => part.kind === "removed").map((p) => p.text)).toEqual([
      "auth",
    ]);
    expect(diff.parts.filter((part) => part.kind === "added").map((p) => p.text)).toEqual([
      "billing",
    ]);
    expect(diff.added).toBe(1);
    expect(diff.removed).toBe(1);
  });

  it("when two 1 MB summaries differ in one word, then the unchanged text is elided to a bounded size", () => {
    const filler = "lorem ipsum dolor ".repeat(60_000);
    const started = performance.now();
    const diff = summaryDiff(`${filler}alpha ${filler}`, `${filler}beta ${filler}`);
    expect(performance.now() - started).toBeLessThan(5_000);
    if (diff.kind !== "diff") throw new Error("expected a diff");
    const shown = diff.parts.reduce((sum, part) => sum + part.text.length, 0);
    expect(shown).toBeLessThan(1_000);
    expect(diff.parts.find((part) => part.kind === "same")?.elided).toBeGreaterThan(1_000_000);
  });

  it("when the summaries share nothing, then it says they are too different instead of a wall of changes", () => {
    const words = (prefix: string) =>
      Array.from({ length: 8_000 }, (_, index) => `${prefix}${index}`).join(" ");
    expect(summaryDiff(words("a"), words("b")).kind).toBe("too_different");
  });
});
