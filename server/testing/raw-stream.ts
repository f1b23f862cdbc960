// Test support: a stream read as the exact bytes on the wire (no SSE parsing), for tests
// that compare what a client receives byte for byte.

export type RawStream = {
  /** Everything received so far, decoded as UTF-8. */
  text(): string;
  /** Resolves once an `id:` line at or above `sequence` has arrived. */
  waitForId(sequence: number, timeoutMs?: number): Promise<void>;
  /** Resolves once `needle` has arrived. */
  waitForText(needle: string, timeoutMs?: number): Promise<void>;
  close(): void;
};

export async function openRawStream(url: string): Promise<RawStream> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  if (response.body === null) throw new Error(`no body (${response.status})`);
  let received = "";
  const waiters = new Set<() => void>();
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        received += decoder.decode(chunk, { stream: true });
        for (const waiter of [...waiters]) waiter();
      }
    } catch {
      // closed
    }
  })();

  function until(done: () => boolean, what: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; got:\n${received.slice(-2000)}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  }

  const highestId = () => {
    let highest = -1;
    for (const match of received.matchAll(/^id: (\d+)$/gm)) {
      highest = Math.max(highest, Number(match[1]));
    }
    return highest;
  };

  return {
    text: () => received,
    waitForId: (sequence, timeoutMs = 5_000) =>
      until(() => highestId() >= sequence, `id ${sequence}`, timeoutMs),
    waitForText: (needle, timeoutMs = 5_000) =>
      until(() => received.includes(needle), JSON.stringify(needle), timeoutMs),
    close: () => controller.abort(),
  };
}
