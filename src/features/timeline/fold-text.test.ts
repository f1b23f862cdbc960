import { describe, expect, it } from "vitest";
import { foldText } from "./fold-text";

const limits = { maxLines: 40, maxChars: 4_000 };
const lines = (count: number, prefix = "line") =>
  Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`).join("\n");

describe("foldText", () => {
  it("when a reply is within 40 lines and 4,000 characters, then it is not folded", () => {
    expect(foldText(lines(40), limits)).toEqual({ folded: false });
    expect(foldText("x".repeat(4_000), limits)).toEqual({ folded: false });
  });

  it("when a reply has more than 40 lines, then the head is its first 40 and says how many are hidden", () => {
    const fold = foldText(lines(100), limits);
    expect(fold).toMatchObject({ folded: true, head: lines(40), hiddenLines: 60 });
  });

  it("when one long paragraph follows another, then the cut falls on the paragraph break", () => {
    const first = "First paragraph. ".repeat(150).trim();
    const text = `${first}\n\n${"Second paragraph. ".repeat(300)}`;
    const fold = foldText(text, limits);
    expect(fold.folded && fold.head).toBe(first);
  });

  it("when the cut would fall inside a code fence, then the head stops before the fence", () => {
    const text = `${lines(30, "intro")}\n\n\`\`\`ts\n${lines(30, "code")}\n\`\`\`\nafter`;
    const fold = foldText(text, limits);
    expect(fold.folded && fold.head).toBe(lines(30, "intro"));
  });

  it("when the reply is one huge line, then it is cut by characters", () => {
    const fold = foldText("y".repeat(24_000), limits);
    expect(fold).toMatchObject({ folded: true, hiddenChars: 20_000, hiddenLines: 0 });
  });
});
