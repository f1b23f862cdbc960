import { describe, expect, it } from "vitest";
import { fillReply } from "./replies";

describe("the fill reply", () => {
  it.each([
    [2_000, 10],
    [50_000, 50],
    [140_000, 70],
  ])("when %i tokens are asked for, then the text ends on a whole sentence", (tokens, percent) => {
    const reply = fillReply(tokens, percent);
    expect(reply.markdown).toMatch(/[.%]$/);
    expect(reply.markdown).not.toMatch(/windo$/);
  });
});
