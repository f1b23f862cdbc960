// Lets a person pipe a whole file of requests into the agent (`cat requests.jsonl | …`).
// Two things would otherwise break that:
// - the SDK answers any request that arrives before `initialize` has been answered with
//   -32600 and handles requests concurrently, so lines read in one go race `initialize`:
//   every line after the first `initialize` request waits until its response is written;
// - the SDK closes the connection as soon as the input ends, cutting off turns still running:
//   the end of the input is passed on only once every request read has been answered and
//   the agent has finished its queued work (`settled`).
// A real client waits for `initialize` and keeps stdin open, so for it the gate does nothing.
import { asJsonObject } from "../../src/contract/json-value";

type JsonRpcId = string | number;

function parseObject(text: string): Record<string, unknown> | null {
  try {
    return asJsonObject(JSON.parse(text)) ?? null;
  } catch {
    return null;
  }
}

function idOf(message: Record<string, unknown> | null): JsonRpcId | null {
  const id = message?.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

// The SDK writes `{"jsonrpc":"2.0","id":…` first for responses, so notifications (the bulk of
// the output, some of them large) are never parsed here.
const RESPONSE_PREFIX = '{"jsonrpc":"2.0","id":';

export type InitializeGate = {
  /** Wraps the agent's input (see the header). */
  hold(input: ReadableStream<Uint8Array>, settled: () => Promise<void>): ReadableStream<Uint8Array>;
  /** Fed every chunk the agent writes, to see responses go out. */
  observeOutput(chunk: Uint8Array): void;
};

export function createInitializeGate(): InitializeGate {
  const inputDecoder = new TextDecoder();
  const outputDecoder = new TextDecoder();
  const encoder = new TextEncoder();
  const unanswered = new Map<JsonRpcId, { answered: Promise<void>; answer: () => void }>();
  let initialize: Promise<void> | null = null;
  let pending = "";

  const track = (id: JsonRpcId): Promise<void> => {
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    unanswered.set(id, { answered, answer });
    return answered;
  };

  return {
    hold: (input, settled) =>
      input.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          async transform(chunk, controller) {
            pending += inputDecoder.decode(chunk, { stream: true });
            for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n")) {
              const line = pending.slice(0, end + 1);
              pending = pending.slice(end + 1);
              if (initialize) await initialize;
              const message = parseObject(line);
              const id = idOf(message);
              if (id !== null && typeof message?.method === "string") {
                const answered = track(id);
                if (!initialize && message.method === "initialize") initialize = answered;
              }
              controller.enqueue(encoder.encode(line));
            }
          },
          async flush(controller) {
            if (pending !== "") controller.enqueue(encoder.encode(pending));
            await Promise.all([...unanswered.values()].map((request) => request.answered));
            await settled();
          },
        }),
      ),
    observeOutput(chunk) {
      if (unanswered.size === 0) return;
      const text = outputDecoder.decode(chunk);
      if (!text.startsWith(RESPONSE_PREFIX)) return;
      const id = idOf(parseObject(text));
      if (id === null) return;
      unanswered.get(id)?.answer();
      unanswered.delete(id);
    },
  };
}
