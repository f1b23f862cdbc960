// Live delta fan-out (quality.md): 20 SSE clients on loopback against a real listening
// daemon app. Latency = from the agent frame reaching the recorder (the call the ACP tap
// makes) to the delta carrying it being parsed by each client. Then the daemon's memory:
// a real `server/main.ts` process over 10 sessions × 10,000 entries, each session read
// and streamed once.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { composeDaemon } from "../server/config/compose";
import { openSse } from "../server/http/sse-reader";
import { openLedger } from "../server/ledger/open-ledger";
import { percentile, printFigure } from "./report";

const CLIENTS = 20;
const FRAMES = 300;
const FRAME_GAP_MS = 5;
const RSS_SESSIONS = 10;
const RSS_ENTRIES = 10_000;

function toolCall(id: string) {
  return {
    sessionUpdate: "tool_call",
    toolCallId: id,
    title: `Read src/file-${id}.ts`,
    kind: "read",
    status: "completed",
    rawInput: { path: `src/file-${id}.ts` },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function fanOut(dir: string) {
  const ledger = openLedger(join(dir, "fanout.db"));
  let port: number | undefined;
  const daemon = composeDaemon({
    ledger,
    agents: [],
    workspace: join(dir, "ws"),
    version: "bench",
    agentCwd: process.cwd(),
    validateResponses: false,
    security: { allowedHosts: [], port: () => port },
    log: () => {},
  });
  const server = serve({ fetch: daemon.app.fetch, hostname: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;

  const session = ledger.store.createSession({
    workspaceId: daemon.workspaceId,
    agentName: "bench",
  });
  const url = `http://127.0.0.1:${port}/api/workspaces/${daemon.workspaceId}/sessions/${session.id}/stream`;
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => openSse(url)));
  await Promise.all(
    clients.map((client) => client.waitFor((e) => e.event === "transcript_snapshot")),
  );

  const sentAt = new Map<string, number>();
  for (let i = 0; i < FRAMES; i += 1) {
    const id = `f${i}`;
    sentAt.set(id, performance.now());
    ledger.recorder.recordUpdate(session.id, "turn-1", toolCall(id));
    await sleep(FRAME_GAP_MS);
  }
  const last = `f${FRAMES - 1}`;
  await Promise.all(
    clients.map((client) =>
      client.waitFor((e) => e.event === "transcript_delta" && e.data.includes(`"${last}"`), 30_000),
    ),
  );

  const latencies: number[] = [];
  for (const client of clients) {
    const seen = new Set<string>();
    for (const event of client.events) {
      if (event.event !== "transcript_delta") continue;
      for (const match of event.data.matchAll(/"toolCallId":"(f\d+)"/g)) {
        const id = match[1] ?? "";
        const start = sentAt.get(id);
        if (start === undefined || seen.has(id)) continue;
        seen.add(id);
        latencies.push(event.receivedAt - start);
      }
    }
    if (seen.size !== FRAMES) throw new Error(`a client saw ${seen.size} of ${FRAMES} frames`);
  }
  for (const client of clients) client.close();
  await daemon.close();
  server.close();
  return latencies;
}

function readRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

async function daemonMemory(dir: string) {
  const dataDir = join(dir, "data");
  const workspace = join(dir, "ws-rss");
  const { mkdirSync } = await import("node:fs");
  mkdirSync(dataDir, { recursive: true });
  const ledger = openLedger(join(dataDir, "tideline.db"));
  const ws = ledger.store.ensureWorkspace(workspace, "ws-rss");
  const ids: string[] = [];
  for (let s = 0; s < RSS_SESSIONS; s += 1) {
    const session = ledger.store.createSession({ workspaceId: ws.id, agentName: "demo" });
    ids.push(session.id);
    for (let i = 0; i < RSS_ENTRIES; i += 1) {
      ledger.recorder.recordUpdate(
        session.id,
        `turn-${Math.floor(i / 50)}`,
        toolCall(`s${s}-${i}`),
      );
    }
  }
  ledger.close();

  const main = fileURLToPath(new URL("../server/main.ts", import.meta.url));
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      main,
      "--port",
      "0",
      "--data-dir",
      dataDir,
      "--workspace",
      workspace,
      "--no-welcome",
    ],
    { env: { ...process.env, NODE_ENV: "production" }, stdio: ["ignore", "ignore", "pipe"] },
  );
  const base = await new Promise<string>((resolve, reject) => {
    let log = "";
    child.stderr.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log)?.[1];
      if (port !== undefined) resolve(`http://127.0.0.1:${port}`);
    });
    child.once("exit", () => reject(new Error(`daemon exited:\n${log}`)));
  });
  const streams = [];
  for (const id of ids) {
    const path = `${base}/api/workspaces/${ws.id}/sessions/${id}`;
    await (await fetch(`${path}/transcript?limit=1000`)).json();
    await (await fetch(`${path}/usage`)).json();
    const stream = await openSse(`${path}/stream`);
    await stream.waitFor((e) => e.event === "transcript_snapshot");
    streams.push(stream);
  }
  await sleep(500);
  const rss = readRssMb(child.pid ?? 0);
  for (const stream of streams) stream.close();
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
  return rss;
}

const dir = mkdtempSync(join(tmpdir(), "tideline-bench-fanout-"));
try {
  const latencies = await fanOut(dir);
  printFigure({
    name: `live delta, recorder call → event parsed, ${CLIENTS} streams, p95`,
    value: percentile(latencies, 95),
    unit: "ms",
    budget: 100,
    kind: "max",
  });
  printFigure({
    name: `live delta, recorder call → event parsed, ${CLIENTS} streams, p50`,
    value: percentile(latencies, 50),
    unit: "ms",
    budget: 100,
    kind: "max",
  });
  const rss = await daemonMemory(dir);
  printFigure({
    name: `daemon RSS, ${RSS_SESSIONS} sessions × ${RSS_ENTRIES} entries, each read and streamed`,
    value: rss,
    unit: "MB",
    budget: 200,
    kind: "max",
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
