import { describe, expect, it } from "vitest";
import { FILL_ANSWER_CHARS, fillAnswer } from "./fill-answer";
import { fillReply } from "./replies";

describe("the fill reply", () => {
  it.each([
    [2_000, 10],
    [50_000, 50],
    [140_000, 70],
  ])("when %i tokens are asked for, then the text ends on a whole sentence", (tokens, percent) => {
    const reply = fillReply(tokens, percent);
    expect(reply.markdown).toMatch(/[.*`)]$/);
    expect(reply.markdown).not.toMatch(/windo$/);
  });

  it("when the welcome session fills to 70 %, then the long reply reads as a real answer: varied headings, prose, lists, a table and code, nothing repeated", () => {
    const { markdown } = fillReply(137_000, 70);
    expect(markdown.length).toBeGreaterThan(8_000);
    const headings = markdown.match(/^## .+$/gm) ?? [];
    expect(headings.length).toBeGreaterThanOrEqual(10);
    expect(new Set(headings).size).toBe(headings.length);
    expect(markdown).toMatch(/^- /m);
    expect(markdown).toMatch(/^1\. /m);
    expect(markdown).toMatch(/^\| .+ \|$/m);
    expect(markdown.match(/^```/gm)?.length ?? 0).toBeGreaterThanOrEqual(6);
    // No paragraph appears twice (the old filler was one paragraph repeated to 24,000 characters).
    const paragraphs = markdown.split(/\n\n+/).filter((part) => part.length > 80);
    expect(new Set(paragraphs).size).toBe(paragraphs.length);
  });

  it("when less room is asked for, then only whole sections are taken, and none when not even one fits", () => {
    const short = fillAnswer(1_500);
    expect(short.length).toBeLessThanOrEqual(1_500);
    expect(short.startsWith("## ")).toBe(true);
    expect(fillAnswer(10)).toBe("");
    expect(fillAnswer(1_000_000).length).toBe(FILL_ANSWER_CHARS);
    // The fill still reaches its level: what the text leaves short is a file read.
    const reply = fillReply(50_000, 50);
    expect(reply.tools[0]?.contextTokens).toBeGreaterThan(0);
  });
});
