// The first screen of a session link is its newest entries, painted. Work that screen does
// not need (the lazy chunks of ADR 0211, per-turn usage of ADR 0119) waits for it, so
// nothing else takes the main thread while the first rows render. A page with no entries to
// paint (an unstarted session, a failed read) says so at once; any other page (no session
// open at all) lets the waiting work go after a bound. The daemon's own picture of the first
// screen, when its page has one (ADR 0217), is removed at the same moment.
import { useSyncExternalStore } from "react";
import { FIRST_SCREEN_ID } from "../contract/first-paint";

/** How long deferred work waits for a first screen that never comes. */
const BOUND_MS = 3_000;

let painted = false;
const listeners = new Set<() => void>();

/** The first screen is painted (or there is none to wait for): release what waited. */
export function firstScreenPainted(): void {
  if (painted) return;
  painted = true;
  for (const listener of listeners) listener();
  listeners.clear();
}

/** Calls `listener` once the first screen is painted: now, if it already is. */
export function onFirstScreenPainted(listener: () => void): () => void {
  if (painted) {
    listener();
    return () => {};
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the first screen is painted, as React state. */
export function useFirstScreenPainted(): boolean {
  return useSyncExternalStore(
    onFirstScreenPainted,
    () => painted,
    () => painted,
  );
}

/** The rows are in the DOM: the frame after the next one has painted them. */
export function markFirstScreenAfterPaint(): void {
  if (painted) return;
  if (typeof requestAnimationFrame !== "function") firstScreenPainted();
  else requestAnimationFrame(() => requestAnimationFrame(firstScreenPainted));
}

/** The daemon's picture of the first screen (ADR 0217) gives way to the real one. */
function removeDaemonFirstScreen(): void {
  document.getElementById(FIRST_SCREEN_ID)?.remove();
}

if (typeof window !== "undefined") {
  setTimeout(firstScreenPainted, BOUND_MS);
  // Once the SPA's own rows are painted under it, or as soon as the person acts on it.
  onFirstScreenPainted(removeDaemonFirstScreen);
  document
    .getElementById(FIRST_SCREEN_ID)
    ?.addEventListener("pointerdown", removeDaemonFirstScreen);
  document.addEventListener("keydown", removeDaemonFirstScreen, { capture: true, once: true });
}
