// The benchmarks' view of a running daemon: the real `server/main.ts` process (started the
// way `npm start` runs it, responses validated) with the flood agent, and the few API
// calls the benches make. One place that knows the HTTP shapes, so the benches read as
// what they measure.
import { join, resolve } from "node:path";
import { type Daemon, startDaemon } from "../e2e/daemon";

const ROOT = resolve(import.meta.dirname, "..");
export const FLOOD_AGENT = `flood=${process.execPath} ${join(ROOT, "bench/flood-agent.mjs")}`;

export type LiveSession = { workspaceId: string; sessionId: string; path: string };

export async function startFloodDaemon(extra: string[] = []): Promise<Daemon> {
  return startDaemon(["--no-welcome", "--agent", FLOOD_AGENT, ...extra]);
}

async function json(response: Response): Promise<Record<string, unknown>> {
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${response.status}: ${JSON.stringify(body)}`);
  return body;
}

export async function createSession(base: string, workspaceDir: string): Promise<LiveSession> {
  const body = await json(
    await fetch(`${base}/api/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ workspace: workspaceDir, agent_name: "flood" }),
    }),
  );
  const session = body.session as { id: string; workspace_id: string };
  const path = `${base}/api/workspaces/${session.workspace_id}/sessions/${session.id}`;
  // A session is promptable once its agent has answered session/new.
  for (let i = 0; i < 400; i += 1) {
    const state = ((await json(await fetch(path))).session as { state: string }).state;
    if (state === "active")
      return { workspaceId: session.workspace_id, sessionId: session.id, path };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("session never became active");
}

let promptCounter = 0;
/** Sends a prompt; resolves with the time from sending to the daemon's acceptance. */
export async function prompt(session: LiveSession, message: string): Promise<number> {
  promptCounter += 1;
  const key = `bench-${process.pid}-${promptCounter}`;
  const start = performance.now();
  await json(
    await fetch(`${session.path}/prompt`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message, message_id: key, idempotency_key: key }),
    }),
  );
  return performance.now() - start;
}

/** Resolves when the session has no turn running (polled: the bench's own cost stays tiny). */
export async function untilIdle(session: LiveSession, timeoutMs = 600_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const body = (await json(await fetch(session.path))).session as {
      activity?: { turn_id?: string } | null;
    };
    if (!body.activity?.turn_id) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("turn did not end in time");
}

/** Probes `/api/health` back to back until stopped; the latencies of every probe. */
export function probeHealth(base: string, gapMs = 10): { stop: () => Promise<number[]> } {
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const start = performance.now();
      const response = await fetch(`${base}/api/health`);
      await response.arrayBuffer();
      samples.push(performance.now() - start);
      await new Promise((r) => setTimeout(r, gapMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return samples;
    },
  };
}

/** A stream reader that only counts what it receives (no parsing, no retained text). */
export async function countStreamBytes(url: string): Promise<{
  bytes: () => number;
  close: () => void;
}> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  let bytes = 0;
  void (async () => {
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) bytes += chunk.length;
    } catch {
      // closed
    }
  })();
  return { bytes: () => bytes, close: () => controller.abort() };
}
