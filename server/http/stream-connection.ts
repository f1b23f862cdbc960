// One subscriber of the session stream: its cursor, what it holds, and its own outgoing
// queue, written to the SSE response as fast as the client takes it. A client that stops
// reading falls behind so that what it has not taken yet, before the newest frame, passes
// `maxQueuedBytes`, and is disconnected (it resumes with its cursor).
import type { Context } from "hono";
import { type SSEStreamingApi, streamSSE } from "hono/streaming";
import type { AppendState } from "./stream-appends";

export const DEFAULT_MAX_QUEUED_BYTES = 8 * 1024 * 1024;

export type Subscriber = {
  cursor: number;
  /** Set when the client asked for append frames; what it holds. */
  appends: AppendState | undefined;
  /** The command catalog revision this subscriber was last told about. */
  revision: string;
  enqueue(frame: string): void;
  /** Ends the stream once what is queued has been written. */
  close(): void;
};

export type Connection = Subscriber & {
  /** Writes the queue to the response until the stream ends; then `onEnd` (maybe twice). */
  serve(onEnd: () => void): Response;
};

type Outgoing = {
  frames: string[];
  bytes: number;
  /** The characters of the chunk being written, until it is written. */
  writing: number;
  wake: (() => void) | undefined;
  ended: boolean;
  closing: boolean;
};

/**
 * The node response behind a request, when served by @hono/node-server (absent in-process):
 * `writableLength` is what it holds that the client has not taken yet.
 */
function socketOf(c: Context): { destroy(): void; readonly writableLength?: number } | undefined {
  const env: unknown = c.env;
  if (typeof env !== "object" || env === null || !("outgoing" in env)) return undefined;
  const outgoing: unknown = env.outgoing;
  return typeof outgoing === "object" && outgoing !== null && "destroy" in outgoing
    ? (outgoing as { destroy(): void; readonly writableLength?: number })
    : undefined;
}

/** Writes what is queued, all of it at once, until the stream ends or is closed and empty. */
async function writeQueued(stream: SSEStreamingApi, out: Outgoing): Promise<void> {
  while (!out.ended && !stream.aborted) {
    if (out.frames.length === 0) {
      if (out.closing) break;
      await new Promise<void>((resolve) => {
        out.wake = resolve;
      });
      out.wake = undefined;
      continue;
    }
    const chunk = out.frames.join("");
    out.frames.length = 0;
    out.bytes = 0;
    out.writing = chunk.length;
    await stream.write(chunk);
    out.writing = 0;
  }
}

export function createConnection(
  c: Context,
  options: {
    sessionId: string;
    cursor: number;
    appends: AppendState | undefined;
    revision: string;
    /** The opening frames, queued whatever their size. */
    first: string[];
    maxQueuedBytes: number;
    keepaliveMs: number;
    log: (line: string) => void;
  },
): Connection {
  const socket = socketOf(c);
  const out: Outgoing = {
    frames: [...options.first],
    bytes: options.first.reduce((sum, frame) => sum + frame.length, 0),
    writing: 0,
    wake: undefined,
    ended: false,
    closing: false,
  };
  const connection: Connection = {
    cursor: options.cursor,
    appends: options.appends,
    revision: options.revision,
    enqueue(frame) {
      if (out.ended) return;
      out.frames.push(frame);
      out.bytes += frame.length;
      // What the client has not taken yet, before this frame: a client that keeps up
      // gets even a frame larger than the limit (the whole entry of a long message).
      // The chunk being written is in the response's buffer or still on its way there.
      const backlog = out.bytes - frame.length + Math.max(out.writing, socket?.writableLength ?? 0);
      if (backlog > options.maxQueuedBytes) {
        options.log(`[stream] ${options.sessionId}: client too slow, disconnecting`);
        out.ended = true;
        socket?.destroy();
      }
      out.wake?.();
    },
    close() {
      out.closing = true;
      out.wake?.();
    },
    serve(onEnd) {
      const end = () => {
        out.ended = true;
        onEnd();
        out.wake?.();
      };
      return streamSSE(c, async (stream) => {
        stream.onAbort(end);
        const keepalive = setInterval(
          () => connection.enqueue(": keepalive\n\n"),
          options.keepaliveMs,
        );
        try {
          await writeQueued(stream, out);
        } finally {
          clearInterval(keepalive);
          end();
        }
      });
    },
  };
  return connection;
}
