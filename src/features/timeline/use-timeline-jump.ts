// Jumping to an entry of the virtualized transcript (the compaction row's "Go to turn 3"):
// when the entry is loaded, scroll its row into view and give it focus; when it is not,
// load older pages one at a time until it is, or until there are none.
import type { Virtualizer } from "@tanstack/react-virtual";
import { type RefObject, useEffect, useRef } from "react";
import type { Entry } from "../../contract/transcript";
import { useJumpFocus, useJumpTarget, useTimelineActions } from "./timeline-store";

/** Frames to wait for the row to render after the scroll (rows render deferred). */
const FOCUS_FRAMES = 30;

export function useTimelineJump({
  entries,
  virtualizer,
  scrollRef,
  canLoadOlder,
  hasOlder,
  loadOlder,
}: {
  entries: readonly Entry[];
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  scrollRef: RefObject<HTMLDivElement | null>;
  canLoadOlder: boolean;
  hasOlder: boolean;
  loadOlder: () => void;
}) {
  const target = useJumpTarget();
  const focus = useJumpFocus();
  const { jumpSettled } = useTimelineActions();
  // The focus wait outlives the effect run that started it (settling the jump re-runs it).
  const frame = useRef(0);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  useEffect(() => {
    if (target === undefined) return;
    const index = entries.findIndex((entry) => entry.message.id === target);
    if (index < 0) {
      if (canLoadOlder) loadOlder();
      else if (!hasOlder) jumpSettled(target);
      return;
    }
    jumpSettled(target);
    virtualizer.scrollToIndex(index, { align: "start" });
    if (!focus) return;
    let frames = 0;
    const focusRow = () => {
      const row = scrollRef.current?.querySelector<HTMLElement>(
        `[data-entry-id="${CSS.escape(target)}"]`,
      );
      if (row) {
        row.focus({ preventScroll: true });
        return;
      }
      frames += 1;
      if (frames < FOCUS_FRAMES) frame.current = requestAnimationFrame(focusRow);
    };
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(focusRow);
  }, [
    target,
    focus,
    entries,
    canLoadOlder,
    hasOlder,
    loadOlder,
    jumpSettled,
    virtualizer,
    scrollRef,
  ]);
}
