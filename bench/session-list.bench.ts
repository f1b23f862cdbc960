// The session list at scale (issue 19, ADR 0140): the real daemon (`server/main.ts`) on a
// ledger seeded with 10, 1,000 and 10,000 sessions; the first
// and a middle page of the list (10 rows each), one session by id, and (reported, not
// compared) the sidebar's own `limit=100` page. Reports each
// request's latency and the daemon's CPU per request (from /proc/<pid>/stat), which must
// stay within 2× of the 10-session figures: a page costs the page, not the catalog.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Daemon, removeDataDir, startDaemon } from "../e2e/daemon";
import { openLedger } from "../server/ledger/open-ledger";
import { percentile, printFigure } from "./report";

const SIZES = [10, 1_000, 10_000] as const;
const WARMUP = 20;
const REQUESTS = 200;
const CLOCK_TICKS = 100; // USER_HZ on Linux

function cpuMs(pid: number): number {
  // Fields after the command name (which may hold spaces): utime is the 12th, stime the 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

function seed(dataDir: string, count: number): string {
  const ledger = openLedger(join(dataDir, "tideline.db"));
  const ws = ledger.store.ensureWorkspace(join(dataDir, "workspace"), "workspace");
  let last = "";
  for (let start = 0; start < count; start += 500) {
    ledger.recorder.batch(() => {
      for (let index = start; index < Math.min(count, start + 500); index += 1) {
        const id = ledger.store.createSession({
          workspaceId: ws.id,
          agentName: "demo",
          name: `Session ${index}`,
        }).id;
        ledger.recorder.recordState(id, "active");
        ledger.recorder.recordInput(id, "turn-1", `Prompt ${index}`);
        ledger.recorder.recordState(id, "stopped", "agent exited with code 0");
        last = id;
      }
    });
  }
  ledger.close();
  return last;
}

type Row = { p50: number; p95: number; cpu: number };

/** One request; its latency in ms. */
async function timed(url: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return performance.now() - start;
}

type Target = { size: number; daemon: Daemon; pid: number; paths: Record<string, string> };

async function startTarget(size: number): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), "tideline-bench-list-"));
  const last = seed(dataDir, size);
  const daemon = await startDaemon(["--no-welcome"], { dataDir });
  if (daemon.pid === undefined) throw new Error("the daemon has no pid");
  const first = (await (await fetch(`${daemon.url}/api/sessions?limit=10`)).json()) as {
    page: { total: number };
  };
  if (first.page.total !== size) {
    throw new Error(`expected ${size} sessions, the daemon lists ${first.page.total}`);
  }
  // Every compared page holds the same 10 rows at every size, so a difference is what the
  // catalog's size costs, not the page's.
  const middle = Math.floor((size - 10) / 2);
  const cursor = Buffer.from(JSON.stringify({ o: middle })).toString("base64url");
  return {
    size,
    daemon,
    pid: daemon.pid,
    paths: {
      "first page of 10": "/api/sessions?limit=10",
      "middle page of 10": `/api/sessions?limit=10&cursor=${cursor}`,
      "one session by id": `/api/sessions/${last}`,
      // The sidebar's own request: min(size, 100) rows, so not comparable across sizes.
      "sidebar page (limit 100)": "/api/sessions?limit=100",
    },
  };
}

/**
 * The sizes' daemons run side by side and take turns, request by request: the shared
 * machine's load falls on every size alike instead of on whichever ran last.
 */
async function measure(targets: readonly Target[], name: string): Promise<Map<number, Row>> {
  const urls = targets.map((target) => `${target.daemon.url}${target.paths[name]}`);
  for (let index = 0; index < WARMUP; index += 1) for (const url of urls) await timed(url);
  const samples = targets.map(() => [] as number[]);
  const cpuBefore = targets.map((target) => cpuMs(target.pid));
  for (let index = 0; index < REQUESTS; index += 1) {
    for (const [at, url] of urls.entries()) samples[at]?.push(await timed(url));
  }
  const rows = new Map<number, Row>();
  for (const [at, target] of targets.entries()) {
    const taken = samples[at] ?? [];
    rows.set(target.size, {
      p50: percentile(taken, 50),
      p95: percentile(taken, 95),
      cpu: (cpuMs(target.pid) - (cpuBefore[at] ?? 0)) / REQUESTS,
    });
  }
  return rows;
}

const results = new Map<string, Map<number, Row>>();
const targets: Target[] = [];
try {
  for (const size of SIZES) targets.push(await startTarget(size));
  for (const name of Object.keys(targets[0]?.paths ?? {})) {
    const rows = await measure(targets, name);
    results.set(name, rows);
    for (const [size, row] of rows) {
      console.log(
        `info   ${name} at ${size} sessions: p50 ${row.p50.toFixed(2)} ms, p95 ${row.p95.toFixed(2)} ms, daemon CPU ${row.cpu.toFixed(2)} ms/request`,
      );
    }
  }
} finally {
  for (const target of targets) {
    await target.daemon.stop();
    removeDataDir(target.daemon);
  }
}

for (const [name, bySize] of results) {
  if (name.startsWith("sidebar")) continue;
  const base = bySize.get(SIZES[0]);
  if (base === undefined) continue;
  for (const size of SIZES.slice(1)) {
    const row = bySize.get(size);
    if (row === undefined) continue;
    printFigure({
      name: `${name} p50 latency at ${size} sessions`,
      value: row.p50,
      unit: "ms",
      budget: 2 * base.p50,
      kind: "max",
      baseline: { name: `${SIZES[0]} sessions`, value: base.p50 },
    });
    printFigure({
      name: `${name} daemon CPU at ${size} sessions`,
      value: row.cpu,
      unit: "ms/request",
      budget: 2 * base.cpu,
      kind: "max",
      baseline: { name: `${SIZES[0]} sessions`, value: base.cpu },
    });
  }
}
