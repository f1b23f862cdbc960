// Export (issue 22, ADR 0240): a 100,000-entry session exported in each format from the real
// daemon, read to its end as a download would be. Figures: the time to the whole file and its
// size, and the daemon's peak resident memory across the three (budget: the daemon memory
// budget in docs/quality.md), against the same daemon idle on the same ledger (the floor).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDaemon } from "../e2e/daemon";
import { openLedger } from "../server/ledger/open-ledger";
import { printFigure } from "./report";

const ENTRIES = 100_000;

function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

function seed(dataDir: string): { workspaceId: string; sessionId: string } {
  const ledger = openLedger(join(dataDir, "tideline.db"));
  const ws = ledger.store.ensureWorkspace(join(dataDir, "ws"), "ws-export");
  const session = ledger.store.createSession({
    workspaceId: ws.id,
    agentName: "demo",
    name: "Export bench",
  });
  const { recorder } = ledger;
  recorder.batch(() => {
    for (let i = 0; i < ENTRIES / 2; i += 1) {
      const turnId = `turn-${Math.floor(i / 20)}`;
      recorder.recordUpdate(session.id, turnId, {
        sessionUpdate: "agent_message_chunk",
        messageId: `m-${i}`,
        content: {
          type: "text",
          text: `Step ${i}: the ledger keeps every row in order, and the fold reads it once.`,
        },
      });
      recorder.recordUpdate(session.id, turnId, {
        sessionUpdate: "tool_call",
        toolCallId: `call-${i}`,
        title: `Read src/file-${i}.ts`,
        kind: "read",
        status: "completed",
        rawInput: { path: `src/file-${i}.ts` },
      });
    }
  });
  ledger.close();
  return { workspaceId: ws.id, sessionId: session.id };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "tideline-bench-export-"));
  try {
    const started = performance.now();
    const ids = seed(dataDir);
    console.log(
      `info   seeded ${ENTRIES.toLocaleString("en")} entries in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const daemon = await startDaemon(["--no-welcome"], { dataDir });
    try {
      const pid = daemon.pid ?? 0;
      await new Promise((resolve) => setTimeout(resolve, 500));
      const idle = memoryOf(pid).rss;
      const base = `${daemon.url}/api/workspaces/${ids.workspaceId}/sessions/${ids.sessionId}/export`;
      for (const format of ["md", "json", "jsonl"] as const) {
        const begin = performance.now();
        const response = await fetch(`${base}?format=${format}`);
        if (!response.ok || response.body === null)
          throw new Error(`${format}: ${response.status}`);
        let bytes = 0;
        for await (const chunk of response.body) bytes += chunk.byteLength;
        const seconds = (performance.now() - begin) / 1000;
        console.log(
          `info   export ${format}: ${(bytes / 1024 / 1024).toFixed(1)} MB in ${seconds.toFixed(2)} s (${(bytes / 1024 / 1024 / seconds).toFixed(0)} MB/s)`,
        );
      }
      const peak = memoryOf(pid).peak;
      printFigure({
        name: `daemon peak RSS exporting a ${ENTRIES.toLocaleString("en")}-entry session (md, json, jsonl)`,
        value: peak,
        unit: "MB",
        budget: 200,
        kind: "max",
        baseline: { name: "the same daemon idle", value: idle },
      });
    } finally {
      await daemon.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
