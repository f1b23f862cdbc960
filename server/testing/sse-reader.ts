// A minimal text/event-stream reader over fetch, for tests and the bench: collects events
// (and comments) as they arrive and lets the caller wait for one.
export type SseEvent = { event: string; data: string; id?: string; receivedAt: number };

export type SseConnection = {
  readonly events: SseEvent[];
  readonly comments: string[];
  readonly status: number;
  /** Resolves with the first event (at or after `from`) matching `match`. */
  waitFor(
    match: (event: SseEvent) => boolean,
    timeoutMs?: number,
    from?: number,
  ): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  close(): void;
};

export async function openSse(
  url: string,
  headers: Record<string, string> = {},
): Promise<SseConnection> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };

  let buffer = "";
  function parse(block: string) {
    let event = "message";
    const data: string[] = [];
    let id: string | undefined;
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) comments.push(line.slice(1).trim());
      else if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
      else if (line.startsWith("id: ")) id = line.slice(4);
    }
    if (data.length > 0) {
      events.push({
        event,
        data: data.join("\n"),
        ...(id === undefined ? {} : { id }),
        receivedAt: performance.now(),
      });
    }
  }

  const ended = (async () => {
    if (response.body === null) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let split = buffer.indexOf("\n\n");
        while (split !== -1) {
          parse(buffer.slice(0, split));
          buffer = buffer.slice(split + 2);
          split = buffer.indexOf("\n\n");
        }
        notify();
      }
    } catch {
      // Aborted by close() or by the server.
    } finally {
      notify();
    }
  })();

  return {
    events,
    comments,
    status: response.status,
    ended,
    waitFor(match, timeoutMs = 10_000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.slice(from).find(match);
          if (found !== undefined) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no matching event within ${timeoutMs} ms; got ${events.map((e) => e.event).join(", ")}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      controller.abort();
    },
  };
}
