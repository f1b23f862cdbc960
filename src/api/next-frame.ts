// When the stream folds what it received into the cache: once per animation frame, so a
// burst of frames costs one cache write and one render.

/** Runs `flush` once, soon (the next animation frame); returns a cancel. */
export type FlushScheduler = (flush: () => void) => () => void;

/**
 * One transcript write per animation frame at most: while an agent streams a long reply,
 * each delta carries the whole message so far, and writing (and rendering) every one of
 * them left a loaded browser tens of seconds behind.
 */
export const nextFrame: FlushScheduler = (flush) => {
  // A hidden tab runs no frames: a timer bounds how many deltas wait (each can carry a
  // whole long message).
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    cancel();
    flush();
  };
  const timer = setTimeout(once, 200);
  const frame = typeof requestAnimationFrame === "function" ? requestAnimationFrame(once) : 0;
  const cancel = () => {
    clearTimeout(timer);
    if (frame) cancelAnimationFrame(frame);
  };
  return () => {
    done = true;
    cancel();
  };
};
