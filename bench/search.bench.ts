// Transcript search latency on a 100,000-entry session (issue 22): queries through the
// route's own calls (`searchWords` + the FTS5 index) at six frequencies, from one entry
// to a word in every entry and the first letter the find bar searches as it is typed. The
// budget (p99 ≤ 50 ms) holds over all of them.
import Database from "better-sqlite3";
import { migrate } from "../server/ledger/migrations";
import { openLedger } from "../server/ledger/open-ledger";
import { createSessionRecorder } from "../server/ledger/session-recorder";
import { createSessionStore } from "../server/ledger/session-store";
import { tempDatabase } from "../server/testing/ledger-session";
import { SESSION_SEARCH_DEFAULT_LIMIT, searchWords } from "../src/contract/search";
import { percentile, printFigure } from "./report";

const ENTRIES = Number(process.env.SEARCH_BENCH_ENTRIES ?? 100_000);
const QUERIES_PER_KIND = 100;
const db = tempDatabase();

// Built through the real recorder (so the index is written as the daemon writes it), in
// transactions of a hundred turns so the fixture takes seconds, not per-frame commits.
const builder = new Database(db.path);
builder.pragma("journal_mode = WAL");
builder.pragma("synchronous = OFF");
migrate(builder);
const now = () => new Date();
const store = createSessionStore(builder, now);
const recorder = createSessionRecorder(builder, now);
const workspace = store.ensureWorkspace("/work/project", "project");
const sessionId = store.createSession({ workspaceId: workspace.id, agentName: "demo" }).id;
const countEntries = builder
  .prepare<[string], number>("SELECT COUNT(*) FROM entries WHERE session_id = ?")
  .pluck(true);
const inBatch = builder.transaction((work: () => void) => work());

const filler = "the quick brown fox reads the file and fixes the failing test".split(" ");
let turn = 0;
const sentence = (n: number) =>
  Array.from({ length: n }, (_, i) => filler[(i * 7 + turn) % filler.length]).join(" ");

// Three entries a turn: the prompt, the reply (streamed), a tool call with its output.
// `task N` is in one entry; `rare<n>` in ~33 turns; `common<n>` in ~3,300; "the" everywhere.
function oneTurn(): void {
  turn += 1;
  const turnId = `turn-${turn}`;
  recorder.recordInput(
    sessionId,
    turnId,
    `Please do task ${turn}: rare${turn % 1000} common${turn % 10} ${sentence(12)}`,
  );
  for (let i = 0; i < 2; i += 1) {
    recorder.recordUpdate(sessionId, turnId, {
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: `${sentence(24)} ` },
    });
  }
  const id = `call-${turn}`;
  recorder.recordUpdate(sessionId, turnId, {
    sessionUpdate: "tool_call",
    toolCallId: id,
    title: `Read src/module-${turn % 500}.ts`,
    kind: "read",
    status: "pending",
  });
  recorder.recordUpdate(sessionId, turnId, {
    sessionUpdate: "tool_call_update",
    toolCallId: id,
    status: "completed",
    rawOutput: sentence(40),
  });
}

const buildStart = performance.now();
while ((countEntries.get(sessionId) ?? 0) < ENTRIES) {
  inBatch(() => {
    for (let i = 0; i < 100; i += 1) oneTurn();
  });
}
const entries = countEntries.get(sessionId) ?? 0;
builder.close();
console.log(
  `session: ${entries} entries, ${turn} turns (built in ${((performance.now() - buildStart) / 1000).toFixed(1)} s)`,
);

const ledger = openLedger(db.path);
const pick = (n: number) => 1 + Math.floor(Math.random() * n);
const kinds: { name: string; query: () => string }[] = [
  { name: "one entry (task N)", query: () => `task ${pick(turn)}` },
  { name: "rare word (~33 entries)", query: () => `rare${pick(999)}` },
  { name: "prefix of a rare word", query: () => `rare${pick(99)}` },
  { name: "common word (~3,300 entries)", query: () => `common${pick(9)}` },
  // The bar searches as a person types: a first letter is a prefix of most of the session.
  { name: "first letter, as typed", query: () => "tqbfra"[pick(6) - 1] as string },
  { name: 'a word in every entry ("the")', query: () => "the" },
];

function time(query: string): { ms: number; total: number } {
  const start = performance.now();
  const found = ledger.search.session(sessionId, searchWords(query), SESSION_SEARCH_DEFAULT_LIMIT);
  return { ms: performance.now() - start, total: found.total };
}

for (const kind of kinds) for (let i = 0; i < 10; i += 1) time(kind.query());
const typed: number[] = [];
for (const kind of kinds) {
  const samples: number[] = [];
  let totals = 0;
  for (let i = 0; i < QUERIES_PER_KIND; i += 1) {
    const { ms, total } = time(kind.query());
    samples.push(ms);
    totals += total;
  }
  typed.push(...samples);
  console.log(
    `info ${kind.name}: p50 ${percentile(samples, 50).toFixed(2)} ms, p99 ${percentile(samples, 99).toFixed(2)} ms, ${(totals / QUERIES_PER_KIND).toFixed(0)} matches on average`,
  );
}
const workspaceMs = Array.from({ length: 50 }, () => {
  const start = performance.now();
  ledger.search.workspace(workspace.id, searchWords(`rare${pick(999)}`), 30);
  return performance.now() - start;
});
console.log(
  `info workspace search, rare word, 30 hits with snippets: p99 ${percentile(workspaceMs, 99).toFixed(2)} ms`,
);
// The floor: FTS5 alone finding the same queries' rows (no session filter, no entry ids).
const bare = new Database(db.path, { readonly: true });
const bareMatch = bare
  .prepare("SELECT rowid FROM entry_search WHERE entry_search MATCH ?")
  .pluck(true);
const bareMs: number[] = [];
for (const kind of kinds) {
  for (let i = 0; i < QUERIES_PER_KIND; i += 1) {
    const start = performance.now();
    bareMatch.all(`"${searchWords(kind.query()).join(" ")}" *`);
    bareMs.push(performance.now() - start);
  }
}
bare.close();
printFigure({
  name: `session search on ${entries} entries, typed queries, p99`,
  value: percentile(typed, 99),
  unit: "ms",
  budget: 50,
  kind: "max",
  baseline: { name: "FTS5 MATCH alone p99", value: percentile(bareMs, 99) },
});
ledger.close();
db.cleanup();
