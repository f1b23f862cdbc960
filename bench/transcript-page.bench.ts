// Transcript page latency on a 100,000-row session (quality.md): 200-entry pages at
// random positions through the reader, against the floor: a plain single-table read of the
// same rows' stored bytes (no tails, no JSON parsing, no objects built) in the same run.
// Two reader figures: `transcriptPage` (the page as objects, each stored message parsed)
// and `transcriptPageJson` (the response body GET …/transcript sends, spliced from the
// stored JSON; the budget lines are for this one, the path the route serves).
import Database from "better-sqlite3";
import { migrate } from "../server/ledger/migrations";
import { openLedger } from "../server/ledger/open-ledger";
import { READ_SQL } from "../server/ledger/read-sql";
import { createSessionRecorder } from "../server/ledger/session-recorder";
import { createSessionStore } from "../server/ledger/session-store";
import { tempDatabase } from "../server/testing/ledger-session";
import { percentile, printFigure } from "./report";

const LEDGER_ROWS = 100_000;
const PAGE = 200;
const READS = 400;

const db = tempDatabase();

// The session is built through the real recorder (every row folded by the projections),
// but inside outer transactions of a hundred turns each, so the fixture takes seconds
// instead of a minute of per-frame commits; the ingest bench measures those.
const builder = new Database(db.path);
builder.pragma("journal_mode = WAL");
builder.pragma("synchronous = OFF");
migrate(builder);
const now = () => new Date();
const store = createSessionStore(builder, now);
const recorder = createSessionRecorder(builder, now);
const workspace = store.ensureWorkspace("/work/project", "project");
const sessionId = store.createSession({ workspaceId: workspace.id, agentName: "demo" }).id;
const lastSequence = builder.prepare<[string], { sequence: number }>(READ_SQL.newestSequence);
const inBatch = builder.transaction((work: () => void) => work());

// A realistic mix: prompts, streamed thoughts and text, tool calls with updates, usage
// readings, completions and now and then a compaction with summary chunks.
let turn = 0;
let toolId = 0;
let compactionId = 0;
const words = "the quick brown fox reads the file and fixes the failing test".split(" ");
const sentence = (n: number) =>
  Array.from({ length: n }, (_, i) => words[(i * 7 + turn) % words.length]).join(" ");
const update = (turnId: string, frame: Record<string, unknown>) =>
  recorder.recordUpdate(sessionId, turnId, frame);

function oneTurn(): void {
  turn += 1;
  const turnId = `turn-${turn}`;
  recorder.recordInput(sessionId, turnId, `Please do task ${turn}: ${sentence(12)}`);
  for (let i = 0; i < 4; i += 1) {
    update(turnId, {
      sessionUpdate: "agent_thought_chunk",
      content: { type: "text", text: `${sentence(6)} ` },
    });
  }
  for (let tool = 0; tool < 2; tool += 1) {
    toolId += 1;
    const id = `call-${toolId}`;
    const path = `src/file-${toolId}.ts`;
    update(turnId, {
      sessionUpdate: "tool_call",
      toolCallId: id,
      title: `Read ${path}`,
      kind: "read",
      status: "pending",
      rawInput: { path },
    });
    update(turnId, { sessionUpdate: "tool_call_update", toolCallId: id, status: "in_progress" });
    update(turnId, {
      sessionUpdate: "tool_call_update",
      toolCallId: id,
      status: "completed",
      rawOutput: sentence(40),
    });
  }
  for (let i = 0; i < 8; i += 1) {
    update(turnId, {
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: `${sentence(8)} ` },
    });
  }
  update(turnId, {
    sessionUpdate: "usage_update",
    used: 1000 * (turn % 150),
    size: 200_000,
    cost: { amount: turn / 100, currency: "USD" },
  });
  if (turn % 25 === 0) {
    compactionId += 1;
    const id = `cmp-${compactionId}`;
    update(turnId, { sessionUpdate: "compaction_update", compactionId: id, status: "in_progress" });
    for (let i = 0; i < 10; i += 1) {
      update(turnId, {
        sessionUpdate: "compaction_summary_chunk",
        compactionId: id,
        content: { type: "text", text: `${sentence(10)}\n` },
      });
    }
    update(turnId, { sessionUpdate: "compaction_update", compactionId: id, status: "completed" });
  }
  recorder.recordPromptCompleted(sessionId, turnId, {
    stop_reason: "end_turn",
    input_tokens: 1200,
    output_tokens: 300,
  });
}

const buildStart = performance.now();
while ((lastSequence.get(sessionId)?.sequence ?? 0) < LEDGER_ROWS) {
  inBatch(() => {
    for (let i = 0; i < 100; i += 1) oneTurn();
  });
}
builder.close();
const buildSeconds = (performance.now() - buildStart) / 1000;

// Reads go through a fresh ledger on the file, as the daemon would after a restart.
const ledger = openLedger(db.path);
const { reader } = ledger;
const rows = reader.maxSequence(sessionId);
const bare = new Database(db.path, { readonly: true });
const entryCount = (
  bare.prepare("SELECT COUNT(*) AS n FROM entries WHERE session_id = ?").get(sessionId) as {
    n: number;
  }
).n;
console.log(
  `session: ${rows} ledger rows, ${entryCount} entries, ${turn} turns, ${compactionId} compactions (built in ${buildSeconds.toFixed(1)} s)`,
);

// The floor is a plain single-table read of the same bytes: the page's stored messages,
// by the same index, in raw mode (no tails looked up, no JSON parsed, no objects built).
const bareRead = bare
  .prepare(
    `SELECT start_sequence, sequence, message FROM entries
     WHERE session_id = ? AND start_sequence < ? ORDER BY start_sequence DESC LIMIT ?`,
  )
  .raw(true);

// Same random positions for both, interleaved so drift on the machine hits both alike.
const positions = Array.from({ length: READS }, () => 1 + Math.floor(Math.random() * rows));
for (const before of positions.slice(0, 50)) {
  reader.transcriptPage(sessionId, { limit: PAGE, beforeSequence: before });
  reader.transcriptPageJson(sessionId, { limit: PAGE, beforeSequence: before });
  bareRead.all(sessionId, before, PAGE + 1);
}
const pageMs: number[] = [];
const stringifiedMs: number[] = [];
const jsonMs: number[] = [];
const bareMs: number[] = [];
for (const before of positions) {
  let start = performance.now();
  const page = reader.transcriptPage(sessionId, { limit: PAGE, beforeSequence: before });
  pageMs.push(performance.now() - start);
  JSON.stringify(page);
  stringifiedMs.push(performance.now() - start);
  start = performance.now();
  reader.transcriptPageJson(sessionId, { limit: PAGE, beforeSequence: before });
  jsonMs.push(performance.now() - start);
  start = performance.now();
  bareRead.all(sessionId, before, PAGE + 1);
  bareMs.push(performance.now() - start);
}

const p50 = percentile(jsonMs, 50);
const p99 = percentile(jsonMs, 99);
const bareP50 = percentile(bareMs, 50);
const bareP99 = percentile(bareMs, 99);
const objectP50 = percentile(pageMs, 50);
const stringifiedP50 = percentile(stringifiedMs, 50);
// Not budgeted: the page as objects (JSON.parse of every stored message, the figure this
// bench printed before), and that plus the JSON.stringify the route used to add on top.
console.log(
  `info transcript page as objects (transcriptPage) p50: ${objectP50.toFixed(2)} ms, p99: ${percentile(pageMs, 99).toFixed(2)} ms; ${(objectP50 / bareP50).toFixed(2)}× plain single-table read p50`,
);
console.log(
  `info transcript page as objects + JSON.stringify (the route before) p50: ${stringifiedP50.toFixed(2)} ms, p99: ${percentile(stringifiedMs, 99).toFixed(2)} ms; ${(stringifiedP50 / bareP50).toFixed(2)}× plain single-table read p50`,
);
printFigure({
  name: "transcript page (200 entries, route's JSON body) p50",
  value: p50,
  unit: "ms",
  budget: 10,
  kind: "max",
  baseline: { name: "plain single-table read p50", value: bareP50 },
});
printFigure({
  name: "transcript page (200 entries, route's JSON body) p99",
  value: p99,
  unit: "ms",
  budget: 30,
  kind: "max",
  baseline: { name: "plain single-table read p99", value: bareP99 },
});
printFigure({
  name: "transcript page (route's JSON body) p50 vs plain single-table read",
  value: p50 / bareP50,
  unit: "×",
  budget: 2,
  kind: "max",
});

bare.close();
ledger.close();
db.cleanup();
