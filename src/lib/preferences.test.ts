// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { applyTheme, readPreferences } from "./preferences";

afterEach(() => applyTheme("system"));

describe("readPreferences", () => {
  it("when nothing is stored, then the theme follows the system, desktop notifications are off and every kind is on", () => {
    expect(readPreferences(null)).toEqual({
      theme: "system",
      desktop: false,
      kinds: { approval: true, turn: true, compaction: true, crash: true },
    });
  });

  it("when the stored value is hostile or half valid, then each bad field falls back on its own", () => {
    for (const raw of ["{", "null", "42", '"dark"', "[]", '{"__proto__":{"theme":"dark"}}']) {
      expect(readPreferences(raw).theme, raw).toBe("system");
    }
    expect(
      readPreferences(
        JSON.stringify({ theme: "dark", desktop: "yes", kinds: { turn: false, crash: 1 } }),
      ),
    ).toEqual({
      theme: "dark",
      desktop: false,
      kinds: { approval: true, turn: false, compaction: true, crash: true },
    });
  });
});

describe("applyTheme", () => {
  it("when a theme is forced, then the root says so; system takes it off", () => {
    applyTheme("dark");
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(document.documentElement.style.colorScheme).toBe("dark");
    applyTheme("system");
    expect(document.documentElement.dataset.theme).toBeUndefined();
    expect(document.documentElement.style.colorScheme).toBe("");
  });

  it("when a theme is forced, then a cookie tells the daemon, for the pages it draws; system clears it", () => {
    applyTheme("light");
    expect(document.cookie).toContain("tideline-theme=light");
    applyTheme("dark");
    expect(document.cookie).toContain("tideline-theme=dark");
    applyTheme("system");
    expect(document.cookie).not.toContain("tideline-theme");
  });
});
