// Follow-tail and older-page loading for the scrolling transcript. While following, every
// change of the content and every resize of the view keeps it pinned to the bottom; only a
// reader who scrolls *up* stops following ("Jump to latest" brings it back) — a resize that
// leaves the bottom out of view is not the reader leaving; a message the reader sends is
// always followed; older entries prepended at the top keep the reader's distance from the
// bottom, so what they were reading stays put.
import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef } from "react";
import { isFollowing, useFollowing, useJumpTarget, useTimelineActions } from "./timeline-store";
import { useTimelineKeys } from "./use-timeline-keys";

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
  // While a jump loads older pages the view sits at the bottom (pages are prepended above
  // it): that is not the reader coming back to the tail, so it must not resume following.
  const jumpingRef = useRef<string | undefined>(undefined);
  jumpingRef.current = useJumpTarget();
  // Home was pressed: stay at the very top while older pages load, until the reader moves.
  const seekingTop = useRef(false);

  useFollowOwnMessage(newestOwnKey, resumeFollowing);
  usePinOnResize(scrollRef, { lastTop, fromBottom });

  // biome-ignore lint/correctness/useExhaustiveDependencies: contentSignature is the trigger: re-pin whenever the content changed.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const prepended =
      previousFirst.current !== undefined &&
      firstKey !== undefined &&
      firstKey < previousFirst.current;
    previousFirst.current = firstKey;
    if (seekingTop.current) element.scrollTop = 0;
    else if (following) element.scrollTop = element.scrollHeight;
    else if (prepended) element.scrollTop = element.scrollHeight - fromBottom.current;
    fromBottom.current = element.scrollHeight - element.scrollTop;
    lastTop.current = element.scrollTop;
    // Nothing to scroll yet, or Home wants the first entry: fetch older pages.
    if (canLoadOlder && (seekingTop.current || element.scrollHeight <= element.clientHeight)) {
      loadOlder();
    }
  }, [scrollRef, firstKey, contentSignature, following, canLoadOlder, loadOlder]);

  const onScroll = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    fromBottom.current = element.scrollHeight - element.scrollTop;
    const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
    const movedUp = element.scrollTop < lastTop.current - 1;
    lastTop.current = element.scrollTop;
    // The reader scrolled away from the top: Home's seek is over.
    if (seekingTop.current && element.scrollTop > 1) seekingTop.current = false;
    if (distance > NEAR_BOTTOM_PX) {
      if (following && movedUp) stopFollowing();
    } else if (!following && !movedUp && jumpingRef.current === undefined) resumeFollowing();
    // Moving up never resumes following: a summary brought into view near the end (or the
    // reader's own small step up) would otherwise be pulled back under the tail.
    if (canLoadOlder && element.scrollTop < NEAR_TOP_PX) loadOlder();
  }, [scrollRef, following, stopFollowing, resumeFollowing, canLoadOlder, loadOlder]);

  /** Back to the tail, following it again: End, and (with focus) Jump to latest. */
  const toTail = useCallback(() => {
    seekingTop.current = false;
    resumeFollowing();
    const element = scrollRef.current;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
    lastTop.current = element.scrollTop;
  }, [scrollRef, resumeFollowing]);

  const { onKeyDown, onWheel } = useTimelineKeys({
    scrollRef,
    marks: { seekingTop, lastTop },
    toTail,
    canLoadOlder,
    loadOlder,
  });

  const jumpToLatest = useCallback(() => {
    toTail();
    scrollRef.current?.focus();
  }, [scrollRef, toTail]);

  return { following, onScroll, onKeyDown, onWheel, jumpToLatest };
}

/** The reader's own new message: back to the tail, whatever they were reading. */
function useFollowOwnMessage(newestOwnKey: number | undefined, resumeFollowing: () => void) {
  const previousOwn = useRef(newestOwnKey);
  useEffect(() => {
    if (newestOwnKey === previousOwn.current) return;
    const isNew =
      previousOwn.current === undefined ||
      (newestOwnKey !== undefined && newestOwnKey > previousOwn.current);
    previousOwn.current = newestOwnKey;
    if (isNew && newestOwnKey !== undefined) resumeFollowing();
  }, [newestOwnKey, resumeFollowing]);
}

/**
 * A resize keeps a following view pinned: of the viewport (window, composer growing, the
 * sidebar list opening) and of the content, whose height changes as the list measures rows
 * a frame or more after they render. Without the content's, a slow first layout left a
 * following view above the tail, and the next scroll event stopped following.
 */
function usePinOnResize(
  scrollRef: RefObject<HTMLDivElement | null>,
  marks: { lastTop: RefObject<number>; fromBottom: RefObject<number> },
) {
  const { lastTop, fromBottom } = marks;
  useEffect(() => {
    const element = scrollRef.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      // The store, not this render's value: a scroll up stops following synchronously, and
      // rows it brings in are measured before React renders again.
      if (!isFollowing()) return;
      element.scrollTop = element.scrollHeight;
      lastTop.current = element.scrollTop;
      fromBottom.current = element.scrollHeight - element.scrollTop;
    });
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [scrollRef, lastTop, fromBottom]);
}
