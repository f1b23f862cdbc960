// The transcript's keys and wheel, for the follow-tail logic in use-timeline-scroll.ts:
// Home seeks the first entry, End goes back to the tail, and a move up stops following
// before the scroll it causes.
import { type KeyboardEvent, type RefObject, useCallback, type WheelEvent } from "react";
import { isTextEntry } from "../../lib/text-entry";
import { isFollowing, useTimelineActions } from "./timeline-store";

/** Keys that scroll the transcript up (Home has its own seek). */
const UP_KEYS = new Set(["PageUp", "ArrowUp"]);

export function useTimelineKeys({
  scrollRef,
  marks,
  toTail,
  canLoadOlder,
  loadOlder,
}: {
  scrollRef: RefObject<HTMLDivElement | null>;
  /** Home's seek in progress, and the scroll position the scroll handler compares with. */
  marks: { seekingTop: RefObject<boolean>; lastTop: RefObject<number> };
  /** Back to the tail, following it again. */
  toTail: () => void;
  canLoadOlder: boolean;
  loadOlder: () => void;
}) {
  const { seekingTop, lastTop } = marks;
  const { stopFollowing } = useTimelineActions();

  /**
   * The reader is about to scroll up: stop following now, before the scroll. A pin to the
   * tail between the input and its scroll event (a row measured meanwhile) would cancel the
   * scroll, and the reader could not leave a tail that is still settling.
   */
  const readerMovesUp = useCallback(
    (element: HTMLElement) => {
      seekingTop.current = false;
      if (element.scrollTop > 0 && isFollowing()) stopFollowing();
    },
    [seekingTop, stopFollowing],
  );

  const onWheel = useCallback(
    (event: WheelEvent<HTMLElement>) => {
      const element = scrollRef.current;
      if (element && event.deltaY < 0) readerMovesUp(element);
    },
    [scrollRef, readerMovesUp],
  );

  /**
   * Home reaches the first entry in one press: the native key stops at the top of what is
   * loaded, and each older page prepended there would keep the reader where they were.
   * End is the tail, followed again. Any other key ends Home's seek at once, before its
   * scroll event: a row measured in between would otherwise pull the view back to the top.
   */
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      if (event.altKey || event.shiftKey || event.metaKey || isTextEntry(event.target)) return;
      const element = scrollRef.current;
      if (!element) return;
      if (event.key !== "Home") seekingTop.current = false;
      if (UP_KEYS.has(event.key)) readerMovesUp(element);
      else if (event.key === "End") {
        event.preventDefault();
        toTail();
      } else if (event.key === "Home") {
        event.preventDefault();
        seekingTop.current = true;
        stopFollowing();
        element.scrollTop = 0;
        lastTop.current = 0;
        if (canLoadOlder) loadOlder();
      }
    },
    [scrollRef, seekingTop, lastTop, stopFollowing, toTail, readerMovesUp, canLoadOlder, loadOlder],
  );

  return { onKeyDown, onWheel };
}
