// @vitest-environment jsdom
import { renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useKeptWhileEqual } from "./kept-while-equal";

describe("useKeptWhileEqual", () => {
  it("when the next value is a new but equal object, then the previous one is kept", () => {
    const first = { "cmp-1": { text: "/compact", sequence: 4 } };
    const { result, rerender } = renderHook(({ value }) => useKeptWhileEqual(value), {
      initialProps: { value: first },
    });
    rerender({ value: { "cmp-1": { text: "/compact", sequence: 4 } } });
    expect(result.current).toBe(first);
  });

  it("when a field changes, then the new value is returned, sharing what did not change", () => {
    const kept = { text: "/compact", sequence: 4 };
    const { result, rerender } = renderHook(({ value }) => useKeptWhileEqual(value), {
      initialProps: { value: { "cmp-1": kept } as Record<string, typeof kept> },
    });
    rerender({ value: { "cmp-1": { ...kept }, "cmp-2": { text: "/compact", sequence: 9 } } });
    expect(result.current).toEqual({
      "cmp-1": kept,
      "cmp-2": { text: "/compact", sequence: 9 },
    });
    expect(result.current["cmp-1"]).toBe(kept);
  });

  it("when there is no value yet, then undefined is passed through", () => {
    const { result } = renderHook(() => useKeptWhileEqual(undefined));
    expect(result.current).toBeUndefined();
  });
});
