import { describe, expect, it } from "vitest";
import type { Entry } from "../../contract/transcript";
import { countLabel, findQuery, loadedMatches, stepMatch, wordRanges } from "./find-view";

const entry = (id: string, start: number, text: string, role: "user" | "assistant" = "user") =>
  ({
    message: { id, role, parts: [{ type: "text", text }] },
    start_sequence: start,
    sequence: start,
  }) as Entry;

describe("find view", () => {
  it("when the daemon cannot search, then the loaded entries are matched with the daemon's rule", () => {
    const entries = [
      entry("a", 1, "Fix the login bug"),
      entry("b", 2, "the bug in login", "assistant"),
      entry("c", 3, "Logins are fine"),
      {
        ...entry("d", 4, ""),
        message: {
          id: "d",
          role: "assistant",
          parts: [{ type: "reasoning", text: "login bug" }],
        },
      } as Entry,
    ];
    expect(loadedMatches(entries, "LOGIN bu").map((m) => m.entry_id)).toEqual(["a"]);
    expect(loadedMatches(entries, "login").map((m) => m.entry_id)).toEqual(["a", "b", "c"]);
    expect(loadedMatches(entries, 'NEAR("login"').map((m) => m.entry_id)).toEqual([]);
  });

  it("when the query has no letter or digit or is too long, then nothing or its first 200 characters are searched", () => {
    expect(findQuery('"*()')).toBeUndefined();
    expect(findQuery("   ")).toBeUndefined();
    expect(findQuery("x".repeat(300))).toHaveLength(200);
  });

  it("when matches are stepped through, then Enter goes newer, Shift+Enter older, both wrap", () => {
    expect(stepMatch(2, 3, 1)).toBe(0);
    expect(stepMatch(0, 3, -1)).toBe(2);
    expect(stepMatch(-1, 3, 1)).toBe(0);
    expect(stepMatch(-1, 3, -1)).toBe(2);
    expect(stepMatch(-1, 0, 1)).toBe(-1);
    expect(countLabel(2, 17)).toBe("3 of 17");
    expect(countLabel(-1, 0)).toBe("No matches");
    expect(countLabel(-1, 4)).toBe("4 matches");
  });

  it("when a row's text is marked, then whole words and the typed part of the last word are", () => {
    const text = "Café login, LOGINS and logs";
    const marked = (words: string[]) =>
      wordRanges(text, words).map(([start, end]) => text.slice(start, end));
    expect(marked(["cafe", "log"])).toEqual(["Café", "log", "LOG", "log"]);
    expect(marked(["login"])).toEqual(["login", "LOGIN"]);
    expect(marked([])).toEqual([]);
  });
});
