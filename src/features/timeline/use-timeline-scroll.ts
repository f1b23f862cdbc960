// Follow-tail and older-page loading for the scrolling transcript. While following, every
// change of the content and every resize of the view keeps it pinned to the bottom; only a
// reader who scrolls *up* stops following ("Jump to latest" brings it back) — a resize that
// leaves the bottom out of view is not the reader leaving; a message the reader sends is
// always followed; older entries prepended at the top keep the reader's distance from the
// bottom, so what they were reading stays put.
import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef } from "react";
import { useFollowing, useTimelineActions } from "./timeline-store";

const NEAR_BOTTOM_PX = 80;
const NEAR_TOP_PX = 400;

export function useTimelineScroll({
  scrollRef,
  firstKey,
  contentSignature,
  canLoadOlder,
  loadOlder,
  newestOwnKey,
}: {
  scrollRef: RefObject<HTMLDivElement | null>;
  firstKey: number | undefined;
  /** The newest user entry's key: when it changes, the reader just sent something. */
  newestOwnKey?: number | undefined;
  /** Changes whenever anything in the list grew or changed size. */
  contentSignature: string;
  canLoadOlder: boolean;
  loadOlder: () => void;
}) {
  const following = useFollowing();
  const { stopFollowing, resumeFollowing } = useTimelineActions();
  const fromBottom = useRef(0);
  const lastTop = useRef(0);
  const previousFirst = useRef(firstKey);
  const previousOwn = useRef(newestOwnKey);
  const followingRef = useRef(following);
  followingRef.current = following;

  // The reader's own new message: back to the tail, whatever they were reading.
  useEffect(() => {
    if (newestOwnKey === previousOwn.current) return;
    const isNew =
      previousOwn.current === undefined ||
      (newestOwnKey !== undefined && newestOwnKey > previousOwn.current);
    previousOwn.current = newestOwnKey;
    if (isNew && newestOwnKey !== undefined) resumeFollowing();
  }, [newestOwnKey, resumeFollowing]);

  // A resize (window, composer growing, the sidebar list opening) keeps a following view
  // pinned; without it the bottom slid out of view and the next scroll event stopped following.
  useEffect(() => {
    const element = scrollRef.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (!followingRef.current) return;
      element.scrollTop = element.scrollHeight;
      lastTop.current = element.scrollTop;
      fromBottom.current = element.scrollHeight - element.scrollTop;
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [scrollRef]);

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
    lastTop.current = element.scrollTop;
    // Nothing to scroll yet: fill the view from older pages.
    if (canLoadOlder && element.scrollHeight <= element.clientHeight) loadOlder();
  }, [scrollRef, firstKey, contentSignature, following, canLoadOlder, loadOlder]);

  const onScroll = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    fromBottom.current = element.scrollHeight - element.scrollTop;
    const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
    const movedUp = element.scrollTop < lastTop.current - 1;
    lastTop.current = element.scrollTop;
    if (distance > NEAR_BOTTOM_PX) {
      if (following && movedUp) stopFollowing();
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
