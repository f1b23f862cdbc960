// Code the first screen of a session does not need (the chart, dialogs, the slash menu, the
// audit, diffs, the syntax highlighter) is a chunk of its own, out of the initial JS
// (ADR 0211). It is fetched when the browser is next idle after the first screen, so it is
// normally there before anyone reaches for it, and at the latest when it first renders.
import { type ComponentType, lazy } from "react";
import { onFirstScreenPainted } from "./first-screen";

type IdleWindow = Window & {
  requestIdleCallback?: (task: () => void, options?: { timeout: number }) => number;
};

/**
 * Runs `task` once the first screen is painted (a session's first rows, or the bound of
 * first-screen.ts) and the main thread is idle (or 2 s on), so no chunk competes with the
 * first entries for the main thread.
 */
export function afterFirstPaint(task: () => void): void {
  if (typeof window === "undefined" || typeof window.requestAnimationFrame !== "function") return;
  const idle = window as IdleWindow;
  onFirstScreenPainted(() => {
    setTimeout(() => {
      if (idle.requestIdleCallback) idle.requestIdleCallback(task, { timeout: 2_000 });
      else task();
    }, 0);
  });
}

/** A promise-returning loader that runs once, however often it is asked. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}

/**
 * `React.lazy` for a named export, whose chunk is also fetched after the first paint. Render
 * it inside a `<Suspense>` whose fallback holds its place.
 */
export function lazyAfterPaint<P extends object>(load: () => Promise<ComponentType<P>>) {
  const loadOnce = once(async () => ({ default: await load() }));
  afterFirstPaint(() => void loadOnce());
  return lazy(loadOnce);
}
