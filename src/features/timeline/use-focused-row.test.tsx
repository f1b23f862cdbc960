// @vitest-environment jsdom
import { renderHook } from "@testing-library/react";
import type { FocusEvent } from "react";
import { describe, expect, it } from "vitest";
import { Entry } from "../../contract/transcript";
import { useFocusedRow } from "./use-focused-row";

const entriesFrom = (first: number, count: number) =>
  Array.from({ length: count }, (_, offset) =>
    Entry.parse({
      start_sequence: (first + offset) * 10,
      sequence: (first + offset) * 10,
      message: { id: `m${first + offset}`, role: "assistant", parts: [] },
    }),
  );

/** A focus event on a button inside the row at `index`, inside the list. */
function focusIn(list: HTMLElement, index: number) {
  const row = document.createElement("div");
  row.dataset.index = String(index);
  const button = document.createElement("button");
  row.append(button);
  list.append(row);
  return { target: button, currentTarget: list } as unknown as FocusEvent<HTMLElement>;
}

const windowOf = (startIndex: number, endIndex: number, count: number) => ({
  startIndex,
  endIndex,
  overscan: 0,
  count,
});

describe("the focused row", () => {
  it("when a button in a row has focus and the window moves away, then that row is still rendered, by its entry after a page is prepended", () => {
    const list = document.createElement("section");
    const { result, rerender } = renderHook(({ entries }) => useFocusedRow(entries), {
      initialProps: { entries: entriesFrom(100, 50) },
    });
    expect(result.current.rangeExtractor(windowOf(40, 45, 50))).toEqual([40, 41, 42, 43, 44, 45]);

    result.current.onFocus(focusIn(list, 3));
    expect(result.current.rangeExtractor(windowOf(40, 42, 50))).toEqual([3, 40, 41, 42]);

    // 20 older entries arrive above: the focused entry is now at index 23.
    rerender({ entries: [...entriesFrom(80, 20), ...entriesFrom(100, 50)] });
    expect(result.current.rangeExtractor(windowOf(60, 61, 70))).toEqual([23, 60, 61]);
  });

  it("when focus leaves the list, then only the window is rendered", () => {
    const list = document.createElement("section");
    const { result } = renderHook(() => useFocusedRow(entriesFrom(1, 30)));
    result.current.onFocus(focusIn(list, 2));
    const outside = document.createElement("textarea");
    result.current.onBlur({
      currentTarget: list,
      relatedTarget: outside,
    } as unknown as FocusEvent<HTMLElement>);
    expect(result.current.rangeExtractor(windowOf(20, 21, 30))).toEqual([20, 21]);
  });
});
