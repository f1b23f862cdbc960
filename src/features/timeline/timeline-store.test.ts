// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { useJumpTarget, useRevealTarget, useTimelineActions } from "./timeline-store";

function renderStore() {
  return renderHook(() => ({
    actions: useTimelineActions(),
    jump: useJumpTarget(),
    reveal: useRevealTarget(),
  })).result;
}

describe("the timeline store's jumps", () => {
  beforeEach(() => {
    const store = renderStore();
    act(() => store.current.actions.sessionOpened());
  });

  it("when the previous jump settles after a new one was asked for (Enter pressed twice in the find bar), then the new jump stays", () => {
    const store = renderStore();
    act(() => store.current.actions.jumpRequested("m-3399", { focus: false }));
    act(() => store.current.actions.jumpRequested("m-1", { focus: false }));
    act(() => store.current.actions.jumpSettled("m-3399"));
    expect(store.current.jump).toBe("m-1");
    act(() => store.current.actions.jumpSettled("m-1"));
    expect(store.current.jump).toBeUndefined();
  });

  it("when a reveal settles after a newer one was asked for, then the newer one stays", () => {
    const store = renderStore();
    act(() => store.current.actions.revealRequested("part-a"));
    act(() => store.current.actions.revealRequested("part-b"));
    act(() => store.current.actions.revealSettled("part-a"));
    expect(store.current.reveal).toBe("part-b");
    act(() => store.current.actions.revealSettled("part-b"));
    expect(store.current.reveal).toBeUndefined();
  });
});
