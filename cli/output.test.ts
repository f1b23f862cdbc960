import { describe, expect, it } from "vitest";
import { cell, paint, renderTable, resolveFormat, UsageError, wantsColour } from "./output";

describe("resolveFormat", () => {
  it("when given a format, then it is used; --json alone means json; nothing means human", () => {
    expect(resolveFormat(undefined, undefined)).toBe("human");
    expect(resolveFormat(" JSONL ", undefined)).toBe("jsonl");
    expect(resolveFormat(undefined, true)).toBe("json");
    expect(resolveFormat("json", true)).toBe("json");
  });

  it("when the format is unknown or contradicts --json, then a usage error", () => {
    expect(() => resolveFormat("yaml", undefined)).toThrow(UsageError);
    expect(() => resolveFormat("toon", true)).toThrow(/--json cannot be combined/);
  });
});

describe("wantsColour", () => {
  it("when not a terminal, NO_COLOR is set or TERM is dumb, then no colour", () => {
    const tty = { write: () => true, isTTY: true };
    expect(wantsColour(tty, {})).toBe(true);
    expect(wantsColour({ write: () => true }, {})).toBe(false);
    expect(wantsColour(tty, { NO_COLOR: "1" })).toBe(false);
    expect(wantsColour(tty, { NO_COLOR: "" })).toBe(true);
    expect(wantsColour(tty, { TERM: "dumb" })).toBe(false);
  });
});

describe("cell and renderTable", () => {
  it("when a value carries control characters or is long, then one clean, cut line", () => {
    expect(cell("a\u001b[31mred\u0007\nline")).toBe("a [31mred line");
    expect(cell("x".repeat(100), 10)).toBe(`${"x".repeat(9)}…`);
    expect(cell(undefined)).toBe("-");
    expect(cell({ a: 1 })).toBe('{"a":1}');
  });

  it("when colour is on, then columns still line up by visible width", () => {
    const colours = paint(true);
    const table = renderTable(
      ["A", "B"],
      [
        [colours.red("long value"), "x"],
        ["s", "y"],
      ],
      colours,
    );
    const [, first, second] = table.split("\n");
    expect(first?.replaceAll("\u001b[31m", "").replaceAll("\u001b[39m", "")).toBe("long value  x");
    expect(second).toBe("s           y");
  });
});
