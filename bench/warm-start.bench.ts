// Warm start (ADR 0212): a freshly started daemon's first transcript request against its
// steady-state time, for the newest page of a 10,000-entry session. Each start is a new
// daemon process on the same ledger file; the bench's own HTTP client is warmed on a bare
// server first, so its first connection's setup is not counted against the daemon.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDaemon } from "../e2e/daemon";
import { percentile, printFigure } from "./report";
import { seedSession } from "./seed-session";

const STARTS = 3;
const STEADY_SAMPLES = 30;

async function timed(url: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return performance.now() - start;
}

async function warmClient(): Promise<void> {
  const bare = createServer((_request, response) => response.end("x".repeat(100_000)));
  await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
  const { port } = bare.address() as AddressInfo;
  for (let i = 0; i < 50; i += 1) await timed(`http://127.0.0.1:${port}/`);
  bare.close();
}

const dataDir = mkdtempSync(join(tmpdir(), "tideline-warm-bench-"));
const workspace = join(dataDir, "workspace");
const seeded = seedSession(dataDir, workspace);
await warmClient();
const firsts: number[] = [];
const steady: number[] = [];
try {
  for (let start = 0; start < STARTS; start += 1) {
    const daemon = await startDaemon(["--no-welcome", "--workspace", workspace], { dataDir });
    const url = `${daemon.url}/api/workspaces/${seeded.workspaceId}/sessions/${seeded.sessionId}/transcript?limit=200`;
    try {
      firsts.push(await timed(url));
      for (let i = 0; i < STEADY_SAMPLES; i += 1) steady.push(await timed(url));
    } finally {
      await daemon.stop();
    }
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
const steadyMedian = percentile(steady, 50);
const firstMedian = percentile(firsts, 50);
printFigure({
  name: `fresh daemon: first transcript page of a 10,000-entry session (median of ${STARTS} starts; each ${firsts.map((ms) => ms.toFixed(1)).join(", ")} ms)`,
  value: firstMedian,
  unit: "ms",
  budget: 2 * steadyMedian,
  kind: "max",
  baseline: { name: "its steady-state median", value: steadyMedian },
});
