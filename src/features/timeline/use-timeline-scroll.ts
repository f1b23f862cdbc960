// Follow-tail and older-page loading for the scrolling transcript. While following, every
// change of the content keeps the view pinned to the bottom; a reader who scrolls up stops
// following ("Jump to latest" brings it back); older entries prepended at the top keep the
// reader's distance from the bottom, so what they were reading stays put.
import { type RefObject, useCallback, useLayoutEffect, useRef } from "react";
import { useFollowing, useTimelineActions } from "./timeline-store";

const NEAR_BOTTOM_PX = 80;
const NEAR_TOP_PX = 400;

export function useTimelineScroll({
  scrollRef,
  firstKey,
  contentSignature,
  canLoadOlder,
  loadOlder,
}: {
  scrollRef: RefObject<HTMLDivElement | null>;
  firstKey: number | undefined;
  /** Changes whenever anything in the list grew or changed size. */
  contentSignature: string;
  canLoadOlder: boolean;
  loadOlder: () => void;
}) {
  const following = useFollowing();
  const { stopFollowing, resumeFollowing } = useTimelineActions();
  const fromBottom = useRef(0);
  const previousFirst = useRef(firstKey);

  // biome-ignore lint/correctness/useExhaustiveDependencies: contentSignature is the trigger: re-pin whenever the content changed.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const prepended =
      previousFirst.current !== undefined &&
      firstKey !== undefined &&
      firstKey < previousFirst.current;
    previousFirst.current = firstKey;
    if (following) element.scrollTop = element.scrollHeight;
    else if (prepended) element.scrollTop = element.scrollHeight - fromBottom.current;
    fromBottom.current = element.scrollHeight - element.scrollTop;
    // Nothing to scroll yet: fill the view from older pages.
    if (canLoadOlder && element.scrollHeight <= element.clientHeight) loadOlder();
  }, [scrollRef, firstKey, contentSignature, following, canLoadOlder, loadOlder]);

  const onScroll = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    fromBottom.current = element.scrollHeight - element.scrollTop;
    const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
    if (distance > NEAR_BOTTOM_PX) {
      if (following) stopFollowing();
    } else if (!following) resumeFollowing();
    if (canLoadOlder && element.scrollTop < NEAR_TOP_PX) loadOlder();
  }, [scrollRef, following, stopFollowing, resumeFollowing, canLoadOlder, loadOlder]);

  const jumpToLatest = useCallback(() => {
    resumeFollowing();
    const element = scrollRef.current;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
    element.focus();
  }, [scrollRef, resumeFollowing]);

  return { following, onScroll, jumpToLatest };
}
