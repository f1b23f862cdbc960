// Lets a person pipe a whole file of requests into the agent. The SDK answers any request
// that arrives before `initialize` has been answered with -32600, and it handles requests
// concurrently, so lines read in one go would race `initialize`. The gate holds every line
// after the first `initialize` request until that request's response has been written.
// A real client waits for the response anyway, so for it the gate never holds anything.

type JsonRpcId = string | number;

function requestId(line: string, method: string): JsonRpcId | null {
  try {
    const message: unknown = JSON.parse(line);
    if (typeof message !== "object" || message === null) return null;
    const { id, method: actual } = message as { id?: unknown; method?: unknown };
    if (actual !== method || (typeof id !== "string" && typeof id !== "number")) return null;
    return id;
  } catch {
    return null;
  }
}

function answersRequest(text: string, id: JsonRpcId): boolean {
  try {
    const message: unknown = JSON.parse(text);
    if (typeof message !== "object" || message === null) return false;
    return (message as { id?: unknown }).id === id && ("result" in message || "error" in message);
  } catch {
    return false;
  }
}

export type InitializeGate = {
  /** Wraps the agent's input: lines after `initialize` wait until it has been answered. */
  hold(input: ReadableStream<Uint8Array>): ReadableStream<Uint8Array>;
  /** Fed every chunk the agent writes, to see the `initialize` response go out. */
  observeOutput(chunk: Uint8Array): void;
};

export function createInitializeGate(): InitializeGate {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let initializeId: JsonRpcId | null = null;
  let open = false;
  let release = () => {};
  const opened = new Promise<void>((resolve) => {
    release = resolve;
  });
  let pending = "";

  return {
    hold: (input) =>
      input.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          async transform(chunk, controller) {
            pending += decoder.decode(chunk, { stream: true });
            for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n")) {
              const line = pending.slice(0, end + 1);
              pending = pending.slice(end + 1);
              if (initializeId !== null && !open) await opened;
              controller.enqueue(encoder.encode(line));
              if (initializeId === null) initializeId = requestId(line, "initialize");
            }
          },
          flush(controller) {
            if (pending !== "") controller.enqueue(encoder.encode(pending));
          },
        }),
      ),
    observeOutput(chunk) {
      if (open || initializeId === null) return;
      if (answersRequest(new TextDecoder().decode(chunk), initializeId)) {
        open = true;
        release();
      }
    },
  };
}
