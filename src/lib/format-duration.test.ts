import { describe, expect, it } from "vitest";
import { formatDuration } from "./format-duration";
import { millisecondsBetween } from "./format-time";

describe("formatDuration", () => {
  it.each([
    [-5, "0 s"],
    [0, "0 s"],
    [12_400, "12 s"],
    [59_999, "59 s"],
    [65_000, "1 min 05 s"],
    [3_600_000 + 120_000, "1 h 02 min"],
  ])("%d ms reads %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it("measures between timestamps and refuses unreadable ones", () => {
    expect(millisecondsBetween("2026-01-01T00:00:00Z", "2026-01-01T00:00:12.5Z")).toBe(12_500);
    expect(millisecondsBetween("nope", "2026-01-01T00:00:00Z")).toBeUndefined();
  });
});
