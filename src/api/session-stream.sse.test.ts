// The session stream against a real HTTP server speaking SSE, read by a spec-following
// EventSource (the `eventsource` package; the browser's own is exercised by e2e/): a
// keepalive comment is not an event and must not look like silence or a failure, and a
// daemon that ends the stream after `session_stopped` must not be reconnected to.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { QueryClient } from "@tanstack/react-query";
import { EventSource } from "eventsource";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type EventSourceLike, SessionStream } from "./session-stream";
import type { TranscriptData } from "./transcript-cache";
import { transcriptQueries } from "./transcript-queries";

type Script = (request: IncomingMessage, response: ServerResponse) => void;

let server: Server;
let base: string;
let connections: string[];
let script: Script;
let stream: SessionStream | undefined;
/** Every EventSource the stream made, in order. */
let sources: EventSource[];

const ref = { workspaceId: "ws_1", sessionId: "ses_1" };

function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

const snapshot = {
  session_id: "ses_1",
  epoch: 3,
  generation: 1,
  entries: [
    {
      message: {
        id: "msg-1",
        role: "user",
        parts: [{ type: "text", text: "hello", state: "done" }],
      },
      start_sequence: 1,
      sequence: 1,
    },
  ],
  max_sequence: 1,
  has_older: false,
  reset: false,
};

beforeEach(async () => {
  connections = [];
  sources = [];
  server = createServer((request, response) => {
    connections.push(request.url ?? "");
    response.writeHead(200, {
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-cache",
      Connection: "keep-alive",
    });
    script(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  stream?.stop();
  stream = undefined;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function open(client: QueryClient): SessionStream {
  stream = new SessionStream(client, ref, (url) => {
    const source = new EventSource(`${base}${url}`);
    sources.push(source);
    return source as unknown as EventSourceLike;
  });
  stream.start();
  return stream;
}

describe("SessionStream over real SSE", () => {
  it("when only keepalive comments follow the snapshot, then the stream stays open on one connection", async () => {
    let keepalives = 0;
    script = (_request, response) => {
      response.write(frame("transcript_snapshot", snapshot));
      const timer = setInterval(() => {
        response.write(": keepalive\n\n");
        keepalives += 1;
      }, 40);
      response.on("close", () => clearInterval(timer));
    };
    const client = new QueryClient();
    const live = open(client);
    await expect.poll(() => live.state).toBe("open");
    // Twenty keepalives delivered on the connection: ~0.8 s of silence a watchdog would punish.
    await expect.poll(() => keepalives, { timeout: 5_000 }).toBeGreaterThanOrEqual(20);
    expect(connections).toHaveLength(1);
    expect(live.state).toBe("open");
    const data = client.getQueryData<TranscriptData>(transcriptQueries.key("ses_1"));
    expect(data).toMatchObject({ epoch: 3, generation: 1, cursor: 1 });
  });

  it("when the daemon ends the stream after session_stopped, then nothing reconnects", async () => {
    script = (_request, response) => {
      response.write(frame("transcript_snapshot", snapshot));
      response.write(
        frame("session_stopped", {
          id: "evt-2",
          session_id: "ses_1",
          sequence: 2,
          turn_id: "",
          type: "session_stopped",
          agent_name: "demo",
          content: { type: "session_stopped", stop_reason: "stopped" },
          timestamp: "2026-12-01T09:00:00Z",
        }),
      );
      response.end();
    };
    // The stream's timers and the EventSource's own retry are fake: every reconnect that
    // could ever be scheduled is run below, with no wait on the clock.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const live = open(new QueryClient());
      await expect.poll(() => live.state).toBe("stopped");
      // A closed EventSource never reconnects by itself…
      expect(sources.map((source) => source.readyState)).toEqual([EventSource.CLOSED]);
      // …and no timer left behind (the old loop's 0.25–0.5 s retry) opens another.
      await vi.runAllTimersAsync();
      expect(sources).toHaveLength(1);
      expect(connections).toHaveLength(1);
      expect(live.state).toBe("stopped");
    } finally {
      vi.useRealTimers();
    }
  });

  it("when it reconnects after a drop, then the request carries the fence of the held history", async () => {
    let first = true;
    script = (_request, response) => {
      if (first) {
        first = false;
        response.write(frame("transcript_snapshot", snapshot));
        setTimeout(() => response.end(), 50);
        return;
      }
      response.write(": keepalive\n\n");
    };
    open(new QueryClient());
    await expect.poll(() => connections.length, { timeout: 5_000 }).toBe(2);
    const resumed = new URL(connections[1] ?? "", base).searchParams;
    expect(resumed.get("after_sequence")).toBe("1");
    expect(resumed.get("epoch")).toBe("3");
    expect(resumed.get("generation")).toBe("1");
  });
});
