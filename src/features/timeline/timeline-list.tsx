import { useVirtualizer, type VirtualItem } from "@tanstack/react-virtual";
import { useCallback, useDeferredValue, useMemo, useRef } from "react";
import type { CompactionMarkerView } from "../../api/usage-queries";
import { Button } from "../../components/button";
import type { Entry } from "../../contract/transcript";
import { EntryRow } from "./entry-row";
import { useEarlierDimmed, useTimelineActions } from "./timeline-store";
import { indexOfStartSequence, showsSpeaker, summaryBoundaryIndex } from "./timeline-view";
import { useEntryKey } from "./use-entry-key";
import { useTimelineScroll } from "./use-timeline-scroll";

const estimateSize = () => 96;

/**
 * The virtualized transcript (ADR 0020): only the rows near the viewport are in the DOM,
 * each measured after render so rows of any height sit where they should.
 */
export function TimelineList({
  entries,
  canLoadOlder,
  loadOlder,
  markerFor,
}: {
  entries: readonly Entry[];
  canLoadOlder: boolean;
  loadOlder: () => void;
  markerFor: (compactionId: string) => CompactionMarkerView | undefined;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // Stable callbacks: a new getItemKey makes the virtualizer re-measure every row on each render.
  const getItemKey = useEntryKey(entries);
  const getScrollElement = useCallback(() => scrollRef.current, []);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement,
    estimateSize,
    overscan: 6,
    paddingStart: 12,
    paddingEnd: 16,
    getItemKey,
    // Rendering inside the scroll event (flushSync) made every scroll step one long task;
    // the rows are rendered below from a deferred copy of the window instead.
    useFlushSync: false,
  });
  const boundary = useMemo(() => summaryBoundaryIndex(entries), [entries]);
  const items = virtualizer.getVirtualItems();
  const keys = useStableKeys(items);
  // Rows coming into view are rendered in the background (interruptible, in slices), so a
  // scroll step or an older page never blocks the main thread for a whole batch of new
  // rows: meanwhile the rows already shown stay, at their current index and position
  // (found by key, so a page prepended above shifts them correctly).
  const shownKeys = useDeferredValue(keys);
  const rows =
    shownKeys === keys
      ? items
      : shownKeys.flatMap((key) => {
          const index = indexOfStartSequence(entries, Number(key));
          const item = index < 0 ? undefined : virtualizer.measurementsCache[index];
          return item ? [item] : [];
        });
  const dimmed = useEarlierDimmed();
  const totalSize = virtualizer.getTotalSize();
  const { following, onScroll, jumpToLatest } = useTimelineScroll({
    scrollRef,
    firstKey: entries[0]?.start_sequence,
    contentSignature: `${entries.length}:${entries.at(-1)?.sequence}:${totalSize}`,
    canLoadOlder,
    loadOlder,
  });
  return (
    <div className="relative min-h-0 flex-1">
      <section
        ref={scrollRef}
        onScroll={onScroll}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
        tabIndex={0}
        aria-label="Transcript"
        // Strict containment makes the scroller a relayout boundary: rows changing inside it
        // re-lay out only the timeline, not the whole document (the context rail holds
        // thousands of nodes for a long session). Its size never depends on its content.
        className="h-full overflow-y-auto overscroll-contain [contain:strict]"
      >
        <div className="relative mx-auto w-full max-w-3xl" style={{ height: totalSize }}>
          {rows.map((item) => {
            const entry = entries[item.index];
            if (!entry) return null;
            const earlier = boundary > 0 && item.index < boundary;
            return (
              <div
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                className="absolute top-0 left-0 w-full px-3 py-1.5 [contain:layout_style] sm:px-4"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {item.index === boundary && boundary > 0 ? <SummaryBoundary /> : null}
                {/* 90 %, not less: the muted labels must keep 4.5:1 (WCAG AA) even dimmed. */}
                <div className={earlier && dimmed ? "opacity-90" : undefined}>
                  <EntryRow
                    entry={entry}
                    showSpeaker={showsSpeaker(entries, item.index)}
                    markerFor={markerFor}
                  />
                </div>
              </div>
            );
          })}
        </div>
      </section>
      {following ? null : (
        <Button
          tone="primary"
          size="sm"
          onClick={jumpToLatest}
          className="absolute bottom-3 left-1/2 -translate-x-1/2 shadow-md"
        >
          Jump to latest <span aria-hidden="true">↓</span>
        </Button>
      )}
    </div>
  );
}

/** The window's keys; the same array while they are the same (measuring moves no row in or out). */
type Key = VirtualItem["key"];

function useStableKeys(items: readonly VirtualItem[]): readonly Key[] {
  const previous = useRef<readonly Key[]>([]);
  const last = previous.current;
  if (last.length === items.length && items.every((item, index) => item.key === last[index]))
    return last;
  const keys = items.map((item) => item.key);
  previous.current = keys;
  return keys;
}

function SummaryBoundary() {
  const dimmed = useEarlierDimmed();
  const { restoreEarlierContrast, dimEarlierTurns } = useTimelineActions();
  return (
    <div className="mb-2 flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-300">
      <span aria-hidden="true" className="h-px flex-1 bg-slate-300 dark:bg-slate-700" />
      <span>Earlier turns were summarized</span>
      <button
        type="button"
        aria-pressed={!dimmed}
        onClick={dimmed ? restoreEarlierContrast : dimEarlierTurns}
        className="rounded px-1 underline underline-offset-2 hover:text-slate-900 dark:hover:text-white"
      >
        Full contrast
      </button>
      <span aria-hidden="true" className="h-px flex-1 bg-slate-300 dark:bg-slate-700" />
    </div>
  );
}
