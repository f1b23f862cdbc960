import { type Range, useVirtualizer, type VirtualItem } from "@tanstack/react-virtual";
import { type RefObject, useCallback, useDeferredValue, useEffect, useMemo, useRef } from "react";
import type { CompactionMarkerView } from "../../api/usage-queries";
import { Button } from "../../components/button";
import type { Entry } from "../../contract/transcript";
import { markFirstScreenAfterPaint } from "../../lib/first-screen";
import { EntryRow } from "./entry-row";
import { useFindCurrentId } from "./find-store";
import { foldStateLines, indexOfStartSequence, showsSpeaker } from "./timeline-view";
import { useEntryKey } from "./use-entry-key";
import { useFindHighlight } from "./use-find-highlight";
import { useFocusedRow } from "./use-focused-row";
import { useTimelineJump } from "./use-timeline-jump";
import { useTimelineReveal } from "./use-timeline-reveal";
import { useTimelineScroll } from "./use-timeline-scroll";

const estimateSize = () => 96;

/**
 * The virtualized transcript (ADR 0020): only the rows near the viewport are in the DOM,
 * each measured after render so rows of any height sit where they should.
 */
export function TimelineList({
  entries,
  canLoadOlder,
  hasOlder,
  loadOlder,
  loadOlderForJump,
  markerFor,
}: {
  entries: readonly Entry[];
  canLoadOlder: boolean;
  /** Older entries exist and can still be asked for (false after a failed page). */
  hasOlder: boolean;
  loadOlder: () => void;
  /** Older entries in big pages, for a jump to an entry far up. */
  loadOlderForJump: () => void;
  markerFor: (compactionId: string) => CompactionMarkerView | undefined;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const focusedRow = useFocusedRow(entries);
  const { virtualizer, rows, totalSize } = useTranscriptWindow(
    entries,
    scrollRef,
    focusedRow.rangeExtractor,
  );
  const stateLines = useMemo(() => foldStateLines(entries), [entries]);
  const { following, onScroll, onKeyDown, onWheel, jumpToLatest } = useTimelineScroll({
    scrollRef,
    firstKey: entries[0]?.start_sequence,
    contentSignature: `${entries.length}:${entries.at(-1)?.sequence}:${totalSize}`,
    canLoadOlder,
    loadOlder,
    newestOwnKey: useMemo(
      () => entries.findLast((entry) => entry.message.role === "user")?.start_sequence,
      [entries],
    ),
  });
  useTimelineJump({
    entries,
    virtualizer,
    scrollRef,
    canLoadOlder,
    hasOlder,
    loadOlder: loadOlderForJump,
  });
  useTimelineReveal({ virtualizer, scrollRef });
  const hasRows = rows.length > 0;
  useEffect(() => {
    if (hasRows) markFirstScreenAfterPaint();
  }, [hasRows]);
  useFindHighlight(scrollRef);
  const findCurrent = useFindCurrentId();
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <section
        ref={scrollRef}
        onScroll={onScroll}
        onKeyDown={onKeyDown}
        onWheel={onWheel}
        onFocus={focusedRow.onFocus}
        onBlur={focusedRow.onBlur}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
        tabIndex={0}
        aria-label="Transcript"
        // Strict containment makes the scroller a relayout boundary: rows changing inside it
        // re-lay out only the timeline, not the whole document (the context rail holds
        // thousands of nodes for a long session). Its size never depends on its content.
        className="min-h-0 flex-1 overflow-y-auto overscroll-contain [contain:strict]"
      >
        <div className="relative mx-auto w-full max-w-3xl" style={{ height: totalSize }}>
          {rows.map((item) => {
            const entry = entries[item.index];
            if (!entry) return null;
            return (
              <TranscriptRow
                key={item.key}
                item={item}
                entry={entry}
                measure={virtualizer.measureElement}
                findCurrent={entry.message.id === findCurrent}
                // A state line folded into the next one is measured as nothing.
                folded={stateLines.folded.has(item.index)}
                line={stateLines.lines.get(item.index)}
                showSpeaker={showsSpeaker(entries, item.index)}
                markerFor={markerFor}
              />
            );
          })}
        </div>
      </section>
      {/* In the flow below the transcript, not floating over it: it never covers text. */}
      {following ? null : (
        <div className="flex shrink-0 justify-center border-t border-slate-200 py-1 dark:border-slate-800">
          <Button tone="primary" size="sm" onClick={jumpToLatest}>
            Jump to latest <span aria-hidden="true">↓</span>
          </Button>
        </div>
      )}
    </div>
  );
}

/**
 * The virtualizer over the entries and the rows to render. Rows coming into view are
 * rendered in the background (interruptible, in slices), so a scroll step or an older page
 * never blocks the main thread for a whole batch of new rows: meanwhile the rows already
 * shown stay, at their current index and position (found by key, so a page prepended above
 * shifts them correctly).
 */
function useTranscriptWindow(
  entries: readonly Entry[],
  scrollRef: RefObject<HTMLDivElement | null>,
  rangeExtractor: (range: Range) => number[],
) {
  // Stable callbacks: a new getItemKey makes the virtualizer re-measure every row on each render.
  const getItemKey = useEntryKey(entries);
  const getScrollElement = useCallback(() => scrollRef.current, [scrollRef]);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement,
    estimateSize,
    overscan: 6,
    paddingStart: 12,
    paddingEnd: 16,
    getItemKey,
    rangeExtractor,
    // Rendering inside the scroll event (flushSync) made every scroll step one long task;
    // the rows are rendered below from a deferred copy of the window instead (on React;
    // Preact renders them after the scroll event in one pass, ADR 0215).
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const keys = useStableKeys(items);
  const shownKeys = useDeferredValue(keys);
  const rows =
    shownKeys === keys
      ? items
      : shownKeys.flatMap((key) => {
          const index = indexOfStartSequence(entries, Number(key));
          const item = index < 0 ? undefined : virtualizer.measurementsCache[index];
          return item ? [item] : [];
        });
  return { virtualizer, rows, totalSize: virtualizer.getTotalSize() };
}

/** One measured row: a folded state line (nothing), a state line, or the entry itself. */
function TranscriptRow({
  item,
  entry,
  measure,
  findCurrent,
  folded,
  line,
  showSpeaker,
  markerFor,
}: {
  item: VirtualItem;
  entry: Entry;
  measure: (element: Element | null) => void;
  findCurrent: boolean;
  folded: boolean;
  line: string | undefined;
  showSpeaker: boolean;
  markerFor: (compactionId: string) => CompactionMarkerView | undefined;
}) {
  return (
    <div
      ref={measure}
      data-index={item.index}
      data-entry-id={entry.message.id}
      // Focusable only by script: a jump to this entry lands here.
      tabIndex={-1}
      data-find-current={findCurrent ? "" : undefined}
      className={`absolute top-0 left-0 w-full px-3 [contain:layout_style] focus:outline-2 focus:-outline-offset-2 focus:outline-cyan-600 data-find-current:outline-2 data-find-current:-outline-offset-2 data-find-current:outline-amber-500 sm:px-4 ${folded ? "" : "py-1.5"}`}
      style={{ transform: `translateY(${item.start}px)` }}
    >
      {folded ? null : line ? (
        <p className="text-xs text-slate-600 dark:text-slate-400">{line}</p>
      ) : (
        <EntryRow entry={entry} showSpeaker={showSpeaker} markerFor={markerFor} />
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
