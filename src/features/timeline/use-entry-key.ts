import { useCallback, useRef } from "react";
import type { Entry } from "../../contract/transcript";

/**
 * The virtualizer's `getItemKey`: one function for the list's lifetime, reading the
 * entries of the render in progress. The virtualizer memoizes every row's measurement on
 * this function's identity, so a new one per `entries` (each older page, each delta)
 * recomputed all 10,000 measurements; a new page still does, through the count.
 */
export function useEntryKey(entries: readonly Entry[]): (index: number) => number {
  const current = useRef(entries);
  // Written during render on purpose: the virtualizer calls the key function while this
  // same render computes its measurements, before any effect could run.
  current.current = entries;
  return useCallback((index: number) => current.current[index]?.start_sequence ?? index, []);
}
