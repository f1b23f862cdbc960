// Bringing a row's element into view after the row changed height (a summary opened near
// the bottom, a long reply folded again). The virtualized list positions rows from its own
// measurements, which catch up a frame or more after the DOM grew: scrolling before that
// aims at stale positions, and the tail logic reads the overlap as "the reader is at the
// bottom". So the reveal waits, frame by frame, until the row's measured size and its
// neighbour's position agree with the DOM, then scrolls once.
import type { Virtualizer } from "@tanstack/react-virtual";
import { type RefObject, useEffect } from "react";
import { useRevealTarget, useTimelineActions } from "./timeline-store";

/** Frames to wait for the list to catch up; after that the reveal goes ahead anyway. */
const SETTLE_FRAMES = 60;

export function useTimelineReveal({
  virtualizer,
  scrollRef,
}: {
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  scrollRef: RefObject<HTMLDivElement | null>;
}) {
  const target = useRevealTarget();
  const { revealSettled } = useTimelineActions();
  useEffect(() => {
    if (target === undefined) return;
    let frames = 0;
    let frame = 0;
    const attempt = () => {
      const element = scrollRef.current?.querySelector<HTMLElement>(`#${CSS.escape(target)}`);
      const row = element?.closest<HTMLElement>("[data-index]");
      frames += 1;
      if (element && row && !isLaidOut(row, virtualizer) && frames < SETTLE_FRAMES) {
        frame = requestAnimationFrame(attempt);
        return;
      }
      element?.scrollIntoView?.({ block: "nearest" });
      revealSettled(target);
    };
    frame = requestAnimationFrame(attempt);
    return () => cancelAnimationFrame(frame);
  }, [target, virtualizer, scrollRef, revealSettled]);
}

/** The list's measurement of this row matches the DOM, and the next row sits right below it. */
function isLaidOut(row: HTMLElement, virtualizer: Virtualizer<HTMLDivElement, Element>) {
  const index = Number(row.dataset.index);
  const measured = virtualizer.measurementsCache[index];
  const box = row.getBoundingClientRect();
  if (!measured || Math.abs(measured.size - box.height) > 1) return false;
  const next = row.parentElement?.querySelector<HTMLElement>(`[data-index="${index + 1}"]`);
  return next ? Math.abs(next.getBoundingClientRect().top - box.bottom) <= 1 : true;
}
