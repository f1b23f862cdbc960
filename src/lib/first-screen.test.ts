// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FIRST_SCREEN_ID } from "../contract/first-paint";

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

  describe("the daemon's first screen of a session link (ADR 0217)", () => {
    function daemonScreen() {
      const screen = document.createElement("div");
      screen.id = FIRST_SCREEN_ID;
      document.body.prepend(screen);
      return screen;
    }
    afterEach(() => document.getElementById(FIRST_SCREEN_ID)?.remove());

    it("when the SPA's own rows are painted, then it is removed, and not before", async () => {
      const drawn = daemonScreen();
      const screen = await freshFirstScreen();
      screen.markFirstScreenAfterPaint();
      vi.advanceTimersToNextFrame();
      expect(drawn.isConnected).toBe(true);
      vi.advanceTimersToNextFrame();
      expect(drawn.isConnected).toBe(false);
    });

    it("when the person presses a key or points at it first, then it is removed at once", async () => {
      const keyed = daemonScreen();
      await freshFirstScreen();
      document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "Tab", bubbles: true }));
      expect(keyed.isConnected).toBe(false);

      const pointed = daemonScreen();
      await freshFirstScreen();
      pointed.dispatchEvent(new Event("pointerdown", { bubbles: true }));
      expect(pointed.isConnected).toBe(false);
    });

    it("when the SPA's rows never come, then it is removed after the bound", async () => {
      const drawn = daemonScreen();
      await freshFirstScreen();
      vi.advanceTimersByTime(2_999);
      expect(drawn.isConnected).toBe(true);
      vi.advanceTimersByTime(1);
      expect(drawn.isConnected).toBe(false);
    });
  });
});
