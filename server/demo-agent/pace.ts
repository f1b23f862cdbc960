// Waiting, scaled by `--speed` (0 = never wait) and cut short by a cancelled turn. `slow` waits
// its stated seconds whatever the speed, so a test can cancel a compaction in flight.

export class TurnCancelled extends Error {
  override name = "TurnCancelled";
}

export type Pace = {
  /** Waits `baseMs / speed` (nothing at speed 0); rejects with TurnCancelled on abort. */
  beat(baseMs: number, signal?: AbortSignal): Promise<void>;
  /** Waits exactly `ms`, regardless of speed; rejects with TurnCancelled on abort. */
  hold(ms: number, signal?: AbortSignal): Promise<void>;
};

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(new TurnCancelled());
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new TurnCancelled());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function createPace(speed: number): Pace {
  return {
    beat: (baseMs, signal) => wait(speed === 0 ? 0 : baseMs / speed, signal),
    hold: (ms, signal) => wait(ms, signal),
  };
}

/** Throws TurnCancelled when the turn was cancelled; a check between frames at speed 0. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new TurnCancelled();
}
