// Daemon memory (quality.md): the real `server/main.ts`, run as `npm start` runs it (through
// tsx, responses validated against the contract), over 10 sessions × 10,000 entries with
// every read surface exercised: each paged to its end the way a client pages it, the whole
// history, a turn's history, usage, and one open stream per session. Floor: the same daemon
// started on the same ledger, before any read (what merely running it costs).
// TIDELINE_BENCH_STEPS=1 prints the resident size after each surface.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DAEMON_NODE_FLAGS } from "../server/config/node-flags";
import { openLedger } from "../server/ledger/open-ledger";
import { openSse } from "../server/testing/sse-reader";
import { printFigure } from "./report";

const SESSIONS = 10;
const ENTRIES = 10_000;
const STEPS = process.env.TIDELINE_BENCH_STEPS === "1";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

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

async function readAll(url: string): Promise<unknown> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

function seedLedger(dataDir: string, workspace: string): { ws: string; ids: string[] } {
  const ledger = openLedger(join(dataDir, "tideline.db"));
  const ws = ledger.store.ensureWorkspace(workspace, "ws-rss");
  const ids: string[] = [];
  for (let s = 0; s < SESSIONS; s += 1) {
    const session = ledger.store.createSession({ workspaceId: ws.id, agentName: "demo" });
    ids.push(session.id);
    for (let i = 0; i < ENTRIES; i += 1) {
      ledger.recorder.recordUpdate(session.id, `turn-${Math.floor(i / 50)}`, toolCall(`${s}-${i}`));
    }
  }
  ledger.close();
  return { ws: ws.id, ids };
}

async function startDaemon(dataDir: string, workspace: string) {
  // As `npm start` runs it: no NODE_ENV, so every response is validated against the contract.
  const main = fileURLToPath(new URL("../server/main.ts", import.meta.url));
  const env = { ...process.env };
  delete env.NODE_ENV;
  const child = spawn(
    process.execPath,
    [
      ...DAEMON_NODE_FLAGS,
      "--import",
      "tsx",
      main,
      "--port",
      "0",
      "--data-dir",
      dataDir,
      "--workspace",
      workspace,
    ],
    { env, stdio: ["ignore", "ignore", "pipe"] },
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
  return { child, base, pid: child.pid ?? 0 };
}

async function daemonMemory(dir: string) {
  const dataDir = join(dir, "data");
  const workspace = join(dir, "ws-rss");
  mkdirSync(dataDir, { recursive: true });
  const { ws, ids } = seedLedger(dataDir, workspace);
  const { child, base, pid } = await startDaemon(dataDir, workspace);
  await sleep(500);
  const idle = memoryOf(pid);
  const step = (what: string) => {
    if (STEPS) console.log(`info   after ${what}: ${memoryOf(pid).rss.toFixed(0)} MB`);
  };
  const streams = [];
  for (const id of ids) {
    const path = `${base}/api/workspaces/${ws}/sessions/${id}`;
    let before: number | undefined;
    do {
      const page = (await readAll(
        `${path}/transcript?limit=1000${before === undefined ? "" : `&before_sequence=${before}`}`,
      )) as { has_older: boolean; next_before_sequence?: number };
      before = page.has_older ? page.next_before_sequence : undefined;
    } while (before !== undefined);
    step(`${id} transcript`);
    let after = 0;
    for (;;) {
      const { events } = (await readAll(`${path}/events?limit=1000&after_sequence=${after}`)) as {
        events: { sequence: number }[];
      };
      if (events.length === 0) break;
      after = events[events.length - 1]?.sequence ?? after;
    }
    step(`${id} events`);
    await readAll(`${path}/history`);
    step(`${id} history`);
    await readAll(`${path}/history?turn_id=turn-3`);
    await readAll(`${path}/usage`);
    await readAll(`${path}/usage/turns`);
    step(`${id} usage`);
    const stream = await openSse(`${path}/stream`);
    await stream.waitFor((e) => e.event === "transcript_snapshot");
    streams.push(stream);
    step(`${id} stream`);
  }
  await sleep(500);
  const memory = memoryOf(pid);
  for (const stream of streams) stream.close();
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
  return { ...memory, idle: idle.rss };
}

const dir = mkdtempSync(join(tmpdir(), "tideline-bench-rss-"));
try {
  const memory = await daemonMemory(dir);
  const name = `${SESSIONS} sessions × ${ENTRIES} entries, every read surface, validated`;
  const floor = { name: "the same daemon before any read", value: memory.idle };
  printFigure({
    name: `daemon RSS, ${name}`,
    value: memory.rss,
    unit: "MB",
    budget: 200,
    kind: "max",
    baseline: floor,
  });
  printFigure({
    name: `daemon peak RSS (VmHWM), ${name}`,
    value: memory.peak,
    unit: "MB",
    budget: 200,
    kind: "max",
    baseline: floor,
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
