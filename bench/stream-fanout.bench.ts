// Live delta latency and daemon memory (quality.md), end to end.
// Latency: from the agent writing a frame (the flood agent stamps its wall-clock time into
// a tool call's title) to that row appearing in the DOM of a real Chromium page, with 20
// streams open on the session (the page's own and 19 more readers). Floor: the same frame's
// trip to a bare SSE reader in this process (what the network path alone costs).
// Memory: the real `server/main.ts`, run as `npm start` runs it (responses validated),
// over 10 sessions × 10,000 entries with every read surface exercised.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/chromium";
import { openSse } from "../server/http/sse-reader";
import { openLedger } from "../server/ledger/open-ledger";
import { createSession, prompt, startFloodDaemon, untilIdle } from "./live-daemon";
import { percentile, printFigure } from "./report";

const STREAMS = 20;
const STAMPS = 60;
const RSS_SESSIONS = 10;
const RSS_ENTRIES = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function liveLatency() {
  const daemon = await startFloodDaemon();
  try {
    const session = await createSession(daemon.url, join(daemon.dataDir, "workspace"));
    await prompt(session, "hello");
    await untilIdle(session);

    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // tsx keeps function names with a `__name` helper the page does not have.
    await page.addInitScript("globalThis.__name = (target) => target;");
    await page.addInitScript(() => {
      const w = window as unknown as { __seen: Record<string, number> };
      w.__seen = {};
      new MutationObserver(() => {
        const transcript = document.querySelector('[aria-label="Transcript"]');
        for (const match of (transcript?.textContent ?? "").matchAll(/stamp (\d+) ([\d.]+)/g)) {
          const key = `${match[1]} ${match[2]}`;
          w.__seen[key] ??= performance.timeOrigin + performance.now();
        }
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.goto(`${daemon.url}/w/${session.workspaceId}/s/${session.sessionId}`);
    await page.getByText("ok").first().waitFor({ timeout: 30_000 });

    const readers = await Promise.all(
      Array.from({ length: STREAMS - 1 }, () => openSse(`${session.path}/stream`)),
    );
    await Promise.all(readers.map((r) => r.waitFor((e) => e.event === "transcript_snapshot")));

    for (let i = 0; i < STAMPS; i += 1) {
      await prompt(session, `stamp ${i}`);
      await page.waitForFunction(
        (n) =>
          Object.keys((window as unknown as { __seen: Record<string, number> }).__seen).some(
            (key) => key.startsWith(`${n} `),
          ),
        i,
        { timeout: 15_000 },
      );
      await untilIdle(session);
    }
    const seen = await page.evaluate(
      () => (window as unknown as { __seen: Record<string, number> }).__seen,
    );
    const browserMs = Object.entries(seen).map(([key, at]) => at - Number(key.split(" ")[1]));

    // The floor: the same frames' arrival at a bare reader in this process.
    const floorMs: number[] = [];
    for (const reader of readers) {
      for (const event of reader.events) {
        for (const match of event.data.matchAll(/stamp (\d+) ([\d.]+)/g)) {
          floorMs.push(performance.timeOrigin + event.receivedAt - Number(match[2]));
        }
      }
      reader.close();
    }
    await browser.close();
    if (browserMs.length !== STAMPS) throw new Error(`saw ${browserMs.length} of ${STAMPS} stamps`);
    return { browserMs, floorMs };
  } finally {
    await daemon.stop();
  }
}

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

async function daemonMemory(dir: string) {
  const dataDir = join(dir, "data");
  const workspace = join(dir, "ws-rss");
  mkdirSync(dataDir, { recursive: true });
  const ledger = openLedger(join(dataDir, "tideline.db"));
  const ws = ledger.store.ensureWorkspace(workspace, "ws-rss");
  const ids: string[] = [];
  for (let s = 0; s < RSS_SESSIONS; s += 1) {
    const session = ledger.store.createSession({ workspaceId: ws.id, agentName: "demo" });
    ids.push(session.id);
    for (let i = 0; i < RSS_ENTRIES; i += 1) {
      ledger.recorder.recordUpdate(session.id, `turn-${Math.floor(i / 50)}`, toolCall(`${s}-${i}`));
    }
  }
  ledger.close();

  // As `npm start` runs it: no NODE_ENV, so every response is validated against the contract.
  const main = fileURLToPath(new URL("../server/main.ts", import.meta.url));
  const env = { ...process.env };
  delete env.NODE_ENV;
  const child = spawn(
    process.execPath,
    ["--import", "tsx", main, "--port", "0", "--data-dir", dataDir, "--workspace", workspace],
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
  await sleep(500);
  const idle = memoryOf(child.pid ?? 0);
  const streams = [];
  for (const id of ids) {
    const path = `${base}/api/workspaces/${ws.id}/sessions/${id}`;
    // Every read surface, each paged to its end the way a client pages it.
    let before: number | undefined;
    do {
      const page = (await readAll(
        `${path}/transcript?limit=1000${before === undefined ? "" : `&before_sequence=${before}`}`,
      )) as { has_older: boolean; next_before_sequence?: number };
      before = page.has_older ? page.next_before_sequence : undefined;
    } while (before !== undefined);
    let after = 0;
    for (;;) {
      const { events } = (await readAll(`${path}/events?limit=1000&after_sequence=${after}`)) as {
        events: { sequence: number }[];
      };
      if (events.length === 0) break;
      after = events[events.length - 1]?.sequence ?? after;
    }
    await readAll(`${path}/history`);
    await readAll(`${path}/history?turn_id=turn-3`);
    await readAll(`${path}/usage`);
    await readAll(`${path}/usage/turns`);
    const stream = await openSse(`${path}/stream`);
    await stream.waitFor((e) => e.event === "transcript_snapshot");
    streams.push(stream);
  }
  await sleep(500);
  const memory = memoryOf(child.pid ?? 0);
  for (const stream of streams) stream.close();
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
  return { ...memory, idle: idle.rss };
}

const { browserMs, floorMs } = await liveLatency();
for (const p of [50, 95]) {
  printFigure({
    name: `live delta, agent frame → row in the browser's DOM, ${STREAMS} streams, p${p}`,
    value: percentile(browserMs, p),
    unit: "ms",
    budget: 100,
    kind: "max",
    baseline: { name: `frame → bare SSE reader p${p}`, value: percentile(floorMs, p) },
  });
}

const dir = mkdtempSync(join(tmpdir(), "tideline-bench-rss-"));
try {
  const memory = await daemonMemory(dir);
  const name = `${RSS_SESSIONS} sessions × ${RSS_ENTRIES} entries, every read surface, validated`;
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
