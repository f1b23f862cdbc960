// Ingest under real load (docs/quality.md), through the real daemon process and a real agent
// process (bench/flood-agent.mjs): one streamed reply of 30,000 chunks into one message,
// a 100,000-frame burst and a 4 MB reply, with `/api/health` probed throughout and another
// session's prompt sent midway. Floors: a bare `node:http` server probed the same way.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import Database from "better-sqlite3";
import {
  countStreamBytes,
  createSession,
  type LiveSession,
  probeHealth,
  prompt,
  startFloodDaemon,
  untilIdle,
} from "./live-daemon";
import { percentile, printFigure } from "./report";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function bareHttpP99(): Promise<number> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"status":"ok"}');
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  const probe = probeHealth(`http://127.0.0.1:${port}`);
  await sleep(3000);
  const samples = await probe.stop();
  server.close();
  return percentile(samples, 99);
}

type LoadFigures = {
  seconds: number;
  healthP99: number;
  healthMax: number;
  otherPromptMs: number;
  streamBytes: number;
};

/** Runs one prompt on `busy` while probing health and prompting `other` after 500 ms. */
async function underLoad(
  base: string,
  busy: LiveSession,
  other: LiveSession,
  message: string,
): Promise<LoadFigures> {
  const reader = await countStreamBytes(`${busy.path}/stream`);
  await sleep(300);
  const before = reader.bytes();
  const probe = probeHealth(base);
  const start = performance.now();
  await prompt(busy, message);
  await sleep(500);
  const otherPromptMs = await prompt(other, "hello");
  await untilIdle(busy);
  const seconds = (performance.now() - start) / 1000;
  const samples = await probe.stop();
  await untilIdle(other);
  await sleep(500);
  const streamBytes = reader.bytes() - before;
  reader.close();
  return {
    seconds,
    healthP99: percentile(samples, 99),
    healthMax: Math.max(...samples),
    otherPromptMs,
    streamBytes,
  };
}

/** Chunk rate over the first and the last `window` chunk rows of the newest message. */
function chunkRates(dbPath: string, sessionId: string, window: number) {
  const db = new Database(dbPath, { readonly: true });
  const rows = db
    .prepare<[string], { created_at: string }>(
      `SELECT created_at FROM ledger WHERE session_id = ? AND type = 'agent.message_chunk'
       ORDER BY sequence`,
    )
    .all(sessionId);
  db.close();
  const rate = (slice: { created_at: string }[]) => {
    const first = Date.parse(slice[0]?.created_at ?? "");
    const last = Date.parse(slice.at(-1)?.created_at ?? "");
    return slice.length / Math.max(0.001, (last - first) / 1000);
  };
  return {
    first: rate(rows.slice(0, window)),
    last: rate(rows.slice(-window)),
    count: rows.length,
  };
}

const healthFloor = await bareHttpP99();
const daemon = await startFloodDaemon();
try {
  const workspace = join(daemon.dataDir, "workspace");
  const stream = await createSession(daemon.url, workspace);
  const other = await createSession(daemon.url, workspace);
  const base = daemon.url;

  // 1. One reply of 30,000 chunks (32 characters each) into one message.
  const long = await underLoad(base, stream, other, "stream 30000 32");
  const rates = chunkRates(join(daemon.dataDir, "tideline.db"), stream.sessionId, 3000);
  printFigure({
    name: "30,000-chunk message: frames/s through the daemon",
    value: 30_000 / long.seconds,
    unit: "frames/s",
    budget: 5000,
    kind: "min",
  });
  printFigure({
    name: "30,000-chunk message: last 3,000 chunks' rate ÷ first 3,000's",
    value: rates.last / rates.first,
    unit: "×",
    budget: 0.8,
    kind: "min",
  });
  printFigure({
    name: "30,000-chunk message: /api/health p99",
    value: long.healthP99,
    unit: "ms",
    budget: 50,
    kind: "max",
    baseline: { name: "bare node:http p99", value: healthFloor },
  });
  printFigure({
    name: "30,000-chunk message: another session's prompt accepted in",
    value: long.otherPromptMs,
    unit: "ms",
    budget: 100,
    kind: "max",
  });

  // 2. Bytes a stream reader receives grow linearly with the message: 1 MB vs 4 MB.
  const oneMb = await underLoad(base, stream, other, "stream 250 4096");
  const fourMb = await underLoad(base, stream, other, "stream 1000 4096");
  const perByte1 = oneMb.streamBytes / (250 * 4096);
  const perByte4 = fourMb.streamBytes / (1000 * 4096);
  console.log(
    `info stream reader received ${(oneMb.streamBytes / 1e6).toFixed(1)} MB for a 1 MB reply, ${(fourMb.streamBytes / 1e6).toFixed(1)} MB for a 4 MB reply`,
  );
  printFigure({
    name: "stream bytes per message byte, 4 MB reply ÷ 1 MB reply (1 = linear)",
    value: perByte4 / perByte1,
    unit: "×",
    budget: 1.5,
    kind: "max",
  });
  printFigure({
    name: "4 MB reply: /api/health p99",
    value: fourMb.healthP99,
    unit: "ms",
    budget: 50,
    kind: "max",
    baseline: { name: "bare node:http p99", value: healthFloor },
  });
  printFigure({
    name: "4 MB reply: another session's prompt accepted in",
    value: fourMb.otherPromptMs,
    unit: "ms",
    budget: 100,
    kind: "max",
  });

  // 3. A 100,000-frame burst of mixed updates.
  const burst = await underLoad(base, stream, other, "burst 100000");
  printFigure({
    name: "100,000-frame burst: frames/s through the daemon",
    value: 100_000 / burst.seconds,
    unit: "frames/s",
    budget: 5000,
    kind: "min",
  });
  printFigure({
    name: "100,000-frame burst: /api/health p99",
    value: burst.healthP99,
    unit: "ms",
    budget: 50,
    kind: "max",
    baseline: { name: "bare node:http p99", value: healthFloor },
  });
  printFigure({
    name: "100,000-frame burst: another session's prompt accepted in",
    value: burst.otherPromptMs,
    unit: "ms",
    budget: 100,
    kind: "max",
  });
} finally {
  await daemon.stop();
}
