// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import type { KeyboardEvent, WheelEvent } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useTimelineActions } from "./timeline-store";
import { useTimelineScroll } from "./use-timeline-scroll";

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

/** jsdom has no ResizeObserver: this one lets a test fire the callbacks when it chooses. */
const resized: Array<() => void> = [];
beforeEach(() => {
  vi.stubGlobal(
    "ResizeObserver",
    class {
      constructor(callback: () => void) {
        resized.push(callback);
      }
      observe() {}
      disconnect() {}
    },
  );
});

afterEach(() => {
  resized.length = 0;
  vi.unstubAllGlobals();
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

  it("when the reader scrolls up and the rows it brings in are measured before React renders again, then the view stays where the reader put it", () => {
    const box = scrollBox(5_000);
    const { result } = renderScroll(box.element, "a");
    expect(box.element.scrollTop).toBe(4_500);
    // PageUp: the scroll event stops following; the rows it revealed are measured in the
    // same frame, before the store's change has re-rendered the hook.
    box.element.scrollTop = 3_700;
    result.current.onScroll();
    box.grow(5_300);
    for (const callback of resized) callback();
    expect(box.element.scrollTop).toBe(3_700);
  });

  it("when PageUp is pressed on a tail that is still settling, then a row measured before its scroll event does not cancel it", () => {
    const box = scrollBox(5_000);
    const { result } = renderScroll(box.element, "a");
    act(() => result.current.onKeyDown(press("PageUp", box.element)));
    // Rows measured between the key and the scroll it causes.
    box.grow(5_400);
    for (const callback of resized) callback();
    expect(box.element.scrollTop).toBe(4_500);
    expect(result.current.following).toBe(false);
  });

  it("when the wheel turns up, then following stops before the scroll", () => {
    const box = scrollBox(5_000);
    const { result } = renderScroll(box.element, "a");
    act(() => result.current.onWheel({ deltaY: -120 } as unknown as WheelEvent<HTMLElement>));
    expect(result.current.following).toBe(false);
    act(() => result.current.onKeyDown(press("End", box.element)));
    expect(result.current.following).toBe(true);
    act(() => result.current.onWheel({ deltaY: 120 } as unknown as WheelEvent<HTMLElement>));
    expect(result.current.following).toBe(true);
  });
});
