// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import type { KeyboardEvent } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useTimelineScroll } from "./use-timeline-scroll";
import { useTimelineActions } from "./timeline-store";

/** A scroll box with real-looking geometry: jsdom lays nothing out. */
function scrollBox(scrollHeight: number, clientHeight = 500) {
  const element = document.createElement("div");
  let top = 0;
  Object.defineProperties(element, {
    scrollHeight: { get: () => scrollHeight, configurable: true },
    clientHeight: { get: () => clientHeight, configurable: true },
    scrollTop: {
      get: () => top,
      set: (value: number) => {
        top = Math.max(0, Math.min(value, scrollHeight - clientHeight));
      },
      configurable: true,
    },
  });
  return {
    element,
    grow(height: number) {
      scrollHeight = height;
    },
  };
}

function press(key: string, target: HTMLElement): KeyboardEvent<HTMLElement> {
  return {
    key,
    target,
    altKey: false,
    shiftKey: false,
    metaKey: false,
    preventDefault: vi.fn(),
  } as unknown as KeyboardEvent<HTMLElement>;
}

function renderScroll(element: HTMLElement, signature: string, canLoadOlder = false) {
  const loadOlder = vi.fn();
  const hook = renderHook(
    ({ contentSignature }) =>
      useTimelineScroll({
        scrollRef: { current: element as HTMLDivElement },
        firstKey: 1,
        contentSignature,
        canLoadOlder,
        loadOlder,
      }),
    { initialProps: { contentSignature: signature } },
  );
  return { ...hook, loadOlder };
}

afterEach(() => {
  const { result } = renderHook(() => useTimelineActions());
  act(() => result.current.sessionOpened());
});

describe("useTimelineScroll", () => {
  it("when End is pressed after Home and a row is measured before its scroll event, then the view is at the tail and follows it", () => {
    const box = scrollBox(5_000);
    const { result, rerender } = renderScroll(box.element, "a");
    expect(box.element.scrollTop).toBe(4_500);

    act(() => result.current.onKeyDown(press("Home", box.element)));
    expect(box.element.scrollTop).toBe(0);
    expect(result.current.following).toBe(false);

    act(() => result.current.onKeyDown(press("End", box.element)));
    // A row measured between the key and its scroll event re-runs the layout effect.
    box.grow(5_200);
    rerender({ contentSignature: "b" });
    expect(box.element.scrollTop).toBe(4_700);
    expect(result.current.following).toBe(true);
  });

  it("when Home is pressed, then the view stays at the top while older pages arrive", () => {
    const box = scrollBox(5_000);
    const { result, rerender, loadOlder } = renderScroll(box.element, "a", true);
    act(() => result.current.onKeyDown(press("Home", box.element)));
    expect(loadOlder).toHaveBeenCalled();
    box.grow(9_000);
    rerender({ contentSignature: "b" });
    expect(box.element.scrollTop).toBe(0);
  });

  it("when End is pressed in the message box, then the transcript leaves it alone", () => {
    const box = scrollBox(5_000);
    const { result } = renderScroll(box.element, "a");
    act(() => result.current.onKeyDown(press("Home", box.element)));
    const field = document.createElement("textarea");
    const event = press("End", field);
    act(() => result.current.onKeyDown(event));
    expect(event.preventDefault).not.toHaveBeenCalled();
    expect(box.element.scrollTop).toBe(0);
  });
});
