import { replaceEqualDeep } from "@tanstack/react-query";
import { useRef } from "react";

/**
 * The value of the previous render while the new one is deeply equal to it (plain objects and
 * arrays, as TanStack Query compares them), so a memoised child it feeds renders again only
 * when the value really changed.
 */
export function useKeptWhileEqual<T>(value: T): T {
  const kept = useRef(value);
  kept.current = replaceEqualDeep(kept.current, value);
  return kept.current;
}
