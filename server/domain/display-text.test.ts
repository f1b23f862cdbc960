import { describe, expect, it } from "vitest";
import { cleanDisplayText } from "./display-text";

describe("cleanDisplayText", () => {
  it("when a name carries ESC sequences, an OSC 8 link or C1 controls, then only their printable text is left", () => {
    expect(cleanDisplayText("\u001b]0;pwned\u0007Fix\u001b[2J bug")).toBe("]0;pwnedFix[2J bug");
    expect(cleanDisplayText("\u001b]8;;http://evil\u001b\\click\u001b]8;;\u001b\\")).toBe(
      "]8;;http://evil\\click]8;;\\",
    );
    expect(cleanDisplayText("a\u009bb\u0090c\u007fd\u0000e")).toBe("abcde");
  });

  it("when a name carries bidi overrides or isolates, then they are removed", () => {
    expect(cleanDisplayText("invoice\u202Egpj.exe")).toBe("invoicegpj.exe");
    expect(cleanDisplayText("\u2066a\u2069\u200e\u200f\u061cb")).toBe("ab");
  });

  it("when a name has line breaks or tabs, then each run becomes one space", () => {
    expect(cleanDisplayText("line one\r\n\tline two\u2028three\u0085four")).toBe(
      "line one line two three four",
    );
  });

  it("when a name is plain text in any script, then it is unchanged", () => {
    for (const name of [
      "Refactor the parser",
      "Überarbeitung — ✓",
      "日本語のセッション",
      "עברית",
    ]) {
      expect(cleanDisplayText(name)).toBe(name);
    }
  });
});
