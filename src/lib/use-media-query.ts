import { useSyncExternalStore } from "react";

/** Whether a media query matches now; `fallback` where there is no matchMedia (tests, SSR). */
export function useMediaQuery(query: string, fallback = true): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window === "undefined" || !window.matchMedia) return () => {};
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () =>
      typeof window === "undefined" || !window.matchMedia
        ? fallback
        : window.matchMedia(query).matches,
    () => fallback,
  );
}

/** Tailwind's `lg`: the rail sits beside the timeline from here up. */
export const WIDE_LAYOUT = "(min-width: 1024px)";
