// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// A fresh module per test: the shared setup releases the first screen for every other test.
async function freshFirstScreen() {
  vi.resetModules();
  return import("./first-screen");
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the first screen", () => {
  it("when the first rows are marked, then waiting work runs two frames later, once", async () => {
    const screen = await freshFirstScreen();
    const waiting = vi.fn();
    screen.onFirstScreenPainted(waiting);
    const { result } = renderHook(() => screen.useFirstScreenPainted());
    expect(result.current).toBe(false);

    screen.markFirstScreenAfterPaint();
    expect(waiting).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersToNextFrame();
      vi.advanceTimersToNextFrame();
    });
    expect(waiting).toHaveBeenCalledTimes(1);
    expect(result.current).toBe(true);

    screen.firstScreenPainted();
    expect(waiting).toHaveBeenCalledTimes(1);
    const late = vi.fn();
    screen.onFirstScreenPainted(late);
    expect(late).toHaveBeenCalledTimes(1);
  });

  it("when no first screen ever comes (no session open), then waiting work goes after the bound", async () => {
    const screen = await freshFirstScreen();
    const waiting = vi.fn();
    screen.onFirstScreenPainted(waiting);
    vi.advanceTimersByTime(2_999);
    expect(waiting).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(waiting).toHaveBeenCalledTimes(1);
  });

  it("when a listener unsubscribes before the paint, then it is not called", async () => {
    const screen = await freshFirstScreen();
    const waiting = vi.fn();
    const stop = screen.onFirstScreenPainted(waiting);
    stop();
    screen.firstScreenPainted();
    expect(waiting).not.toHaveBeenCalled();
  });
});
