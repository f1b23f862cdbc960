import { defaultRangeExtractor, type Range } from "@tanstack/react-virtual";
import { type FocusEvent, useCallback, useRef } from "react";
import type { Entry } from "../../contract/transcript";
import { indexOfStartSequence } from "./timeline-view";

/**
 * Keeps the row that holds keyboard focus rendered while the virtual window moves away from
 * it (the wheel, a resize, a re-pin to the tail): unmounting it would drop focus on the
 * body, and the next key would do nothing. The row is kept by its entry's key, so a page
 * prepended above cannot point it at another row.
 */
export function useFocusedRow(entries: readonly Entry[]) {
  const current = useRef(entries);
  // Written during render, like useEntryKey: the virtualizer reads it in the same render.
  current.current = entries;
  const focusedKey = useRef<number | undefined>(undefined);

  const rangeExtractor = useCallback((range: Range) => {
    const indexes = defaultRangeExtractor(range);
    const key = focusedKey.current;
    if (key === undefined) return indexes;
    const index = indexOfStartSequence(current.current, key);
    if (index < 0 || indexes.includes(index)) return indexes;
    return [...indexes, index].sort((a, b) => a - b);
  }, []);

  const onFocus = useCallback((event: FocusEvent<HTMLElement>) => {
    const row = event.target.closest<HTMLElement>("[data-index]");
    const entry = row ? current.current[Number(row.dataset.index)] : undefined;
    focusedKey.current = entry?.start_sequence;
  }, []);

  const onBlur = useCallback((event: FocusEvent<HTMLElement>) => {
    const next = event.relatedTarget;
    if (!(next instanceof Node) || !event.currentTarget.contains(next)) {
      focusedKey.current = undefined;
    }
  }, []);

  return { rangeExtractor, onFocus, onBlur };
}
