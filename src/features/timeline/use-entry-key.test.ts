// @vitest-environment jsdom
import { renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Entry } from "../../contract/transcript";
import { useEntryKey } from "./use-entry-key";

const entry = (start: number): Entry => ({
  start_sequence: start,
  sequence: start,
  message: { id: `m${start}`, role: "user", parts: [{ type: "text", id: "p", text: "hi" }] },
});

describe("useEntryKey", () => {
  it("when an older page is prepended, then the key function keeps its identity and reads the new entries", () => {
    const newest = [entry(30), entry(40)];
    const { result, rerender } = renderHook(({ entries }) => useEntryKey(entries), {
      initialProps: { entries: newest },
    });
    const first = result.current;
    expect(first(0)).toBe(30);
    rerender({ entries: [entry(10), entry(20), ...newest] });
    expect(result.current).toBe(first);
    expect(result.current(0)).toBe(10);
    expect(result.current(2)).toBe(30);
  });

  it("when an index is past the end, then its key is the index itself", () => {
    const { result } = renderHook(() => useEntryKey([entry(5)]));
    expect(result.current(3)).toBe(3);
  });
});
