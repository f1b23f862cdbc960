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

/** The longest wait between two tries of a chunk that did not arrive. */
const RETRY_CAP_MS = 5_000;

/**
 * Tries `load` until it succeeds, waiting 0.5 s, 1 s, 2 s… (at most 5 s) between tries. A
 * chunk that fails to arrive (the daemon restarting, the network gone) is asked for again
 * when it can be, and the `<Suspense>` fallback holds its place meanwhile, instead of the
 * error page.
 */
export function untilLoaded<T>(load: () => Promise<T>, waitMs = 500): Promise<T> {
  return load().catch(
    () =>
      new Promise<T>((resolve) => {
        setTimeout(() => resolve(untilLoaded(load, Math.min(waitMs * 2, RETRY_CAP_MS))), waitMs);
      }),
  );
}

type TrackedPromise<T> = Promise<T> & { status?: "fulfilled"; value?: T };

/**
 * A chunk loader that runs once, however often it is asked, and retries until the chunk is
 * in. Its promise is marked fulfilled the way `use` reads it, so a part rendered after the
 * chunk arrived never suspends (no flash of its fallback).
 */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: TrackedPromise<T> | undefined;
  return () => {
    if (loaded) return loaded;
    const promise: TrackedPromise<T> = untilLoaded(load);
    void promise.then((value) => {
      promise.status = "fulfilled";
      promise.value = value;
    });
    loaded = promise;
    return promise;
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
