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

async function measure(daemon: Daemon, pid: number, path: string) {
  const url = `${daemon.url}${path}`;
  for (let index = 0; index < WARMUP; index += 1) await (await fetch(url)).arrayBuffer();
  const samples: number[] = [];
  const cpuBefore = cpuMs(pid);
  for (let index = 0; index < REQUESTS; index += 1) {
    const start = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    samples.push(performance.now() - start);
  }
  return {
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    cpu: (cpuMs(pid) - cpuBefore) / REQUESTS,
  };
}

function daemonPid(daemon: Daemon): number {
  if (daemon.pid === undefined) throw new Error("the daemon has no pid");
  return daemon.pid;
}

type Row = Awaited<ReturnType<typeof measure>>;
const results = new Map<string, Map<number, Row>>();

for (const size of SIZES) {
  const dataDir = mkdtempSync(join(tmpdir(), "tideline-bench-list-"));
  const last = seed(dataDir, size);
  const daemon = await startDaemon(["--no-welcome"], { dataDir });
  try {
    const pid = daemonPid(daemon);
    const first = (await (await fetch(`${daemon.url}/api/sessions?limit=50`)).json()) as {
      page: { total: number; next_cursor?: string };
    };
    if (first.page.total !== size)
      throw new Error(`expected ${size} sessions, the daemon lists ${first.page.total}`);
    // Every measured page holds the same 10 rows at every size, so a difference is what
    // the catalog's size costs, not the page's.
    const middle = Math.floor((size - 10) / 2);
    const cursor = Buffer.from(JSON.stringify({ o: middle })).toString("base64url");
    const paths = {
      "first page of 10": "/api/sessions?limit=10",
      "middle page of 10": `/api/sessions?limit=10&cursor=${cursor}`,
      "one session by id": `/api/sessions/${last}`,
      // The sidebar's own request: min(size, 100) rows, so not comparable across sizes.
      "sidebar page (limit 100)": "/api/sessions?limit=100",
    };
    for (const [name, path] of Object.entries(paths)) {
      const row = await measure(daemon, pid, path);
      const bySize = results.get(name) ?? new Map<number, Row>();
      bySize.set(size, row);
      results.set(name, bySize);
      console.log(
        `info   ${name} at ${size} sessions: p50 ${row.p50.toFixed(2)} ms, p95 ${row.p95.toFixed(2)} ms, daemon CPU ${row.cpu.toFixed(2)} ms/request`,
      );
    }
  } finally {
    await daemon.stop();
    removeDataDir(daemon);
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
