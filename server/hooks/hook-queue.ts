// Where hook runs wait: one chain per session, so a session's hooks run one at a time in
// commit order (pre, then post), and a bound on the runs waiting or running at once.

export function createHookQueue(maxPending: number) {
  const chains = new Map<string, Promise<void>>();
  let pending = 0;

  return {
    /** Queues `work` after the session's earlier runs; false (not queued) when full. */
    enqueue(sessionId: string, work: () => Promise<void>): boolean {
      if (pending >= maxPending) return false;
      pending += 1;
      const run = async () => {
        try {
          await work();
        } finally {
          pending -= 1;
        }
      };
      const previous = chains.get(sessionId) ?? Promise.resolve();
      const next = previous.then(run).finally(() => {
        if (chains.get(sessionId) === next) chains.delete(sessionId);
      });
      chains.set(sessionId, next);
      return true;
    },

    /** Waits for every run queued so far. */
    async drain(): Promise<void> {
      await Promise.allSettled([...chains.values()]);
    },
  };
}
