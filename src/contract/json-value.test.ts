import { describe, expect, it } from "vitest";
import { asJsonObject, isJsonObject, shownText } from "./json-value";

describe("reading open JSON", () => {
  it.each([
    [{ a: 1 }, true],
    [{}, true],
    [[], false],
    [null, false],
    [undefined, false],
    ["{}", false],
    [3, false],
  ])("when the value is %j, then it is a plain object: %s", (value, expected) => {
    expect(isJsonObject(value)).toBe(expected);
    expect(asJsonObject(value)).toBe(expected ? value : undefined);
  });

  it.each([
    ["  Write notes.md ", "Write notes.md"],
    ["x", "x"],
    ["   ", undefined],
    ["", undefined],
    [42, undefined],
    [null, undefined],
  ])("when the text is %j, then it shows as %j", (value, expected) => {
    expect(shownText(value)).toBe(expected);
  });
});
