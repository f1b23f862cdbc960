// Delta pacing (ADR 0147): a session's next delta may go out only after an interval that
// grows with the size of the last one (≥ 50 ms, and `bytes / DELTA_BYTES_PER_SECOND`), so a
// growing message is re-sent a bounded number of times per second and the bytes a reader
// receives grow linearly with the message. Finding appends is paced the same way by the
// characters compared. Session frames (a stop) are never held back.

/** The shortest gap between two deltas of one session (at most 20 a second). */
const MIN_DELTA_INTERVAL_MS = 50;
/** What one session's deltas may send per second, whatever the size of its entries. */
const DELTA_BYTES_PER_SECOND = 4 * 1024 * 1024;
/** Finding an append compares the grown string: at most this many characters a second. */
const APPEND_COMPARE_CHARS_PER_SECOND = 64 * 1024 * 1024;

export type DeltaPacing = {
  /** How long the session's next delta must still wait at `now` (≤ 0: it may go now). */
  waitMs(sessionId: string, now: number): number;
  /** A flush sent frames: the largest one's length, and the most characters compared. */
  sent(sessionId: string, largest: number, compared: number): void;
  /** Flushes again after `waitMs`, or sooner if a sooner flush is already due. */
  defer(sessionId: string, waitMs: number): void;
  /** The session's last subscriber left. */
  forget(sessionId: string): void;
  /** Cancels every deferred flush (shutdown). */
  stop(): void;
};

/** `flushSoon` runs when a deferred session is due. */
export function createDeltaPacing(flushSoon: () => void): DeltaPacing {
  const nextDeltaAt = new Map<string, number>();
  const deferred = new Map<string, { timer: NodeJS.Timeout; at: number }>();
  return {
    waitMs: (sessionId, now) => (nextDeltaAt.get(sessionId) ?? 0) - now,
    sent(sessionId, largest, compared) {
      if (largest === 0 && compared === 0) return;
      const interval = Math.max(
        MIN_DELTA_INTERVAL_MS,
        (largest / DELTA_BYTES_PER_SECOND) * 1000,
        (compared / APPEND_COMPARE_CHARS_PER_SECOND) * 1000,
      );
      nextDeltaAt.set(sessionId, performance.now() + interval);
    },
    defer(sessionId, waitMs) {
      const at = performance.now() + waitMs;
      const existing = deferred.get(sessionId);
      if (existing !== undefined && existing.at <= at) return;
      clearTimeout(existing?.timer);
      const timer = setTimeout(
        () => {
          deferred.delete(sessionId);
          flushSoon();
        },
        Math.max(1, Math.ceil(waitMs)),
      );
      timer.unref();
      deferred.set(sessionId, { timer, at });
    },
    forget(sessionId) {
      nextDeltaAt.delete(sessionId);
      clearTimeout(deferred.get(sessionId)?.timer);
      deferred.delete(sessionId);
    },
    stop() {
      for (const { timer } of deferred.values()) clearTimeout(timer);
      deferred.clear();
    },
  };
}
