// The compaction audit of a compaction that replaced 500 turns (issue 20: ≤ 100 ms in the
// daemon). The session is built through the real recorder: prompts naming files, tool calls
// (reads, edits, commands, some failing), streamed replies with identifiers, plan updates,
// and a first compaction before the 500 turns so the audit also compares with it. The floor
// is a plain read of the same span's stored rows (no parsing, no audit) in the same run.
import Database from "better-sqlite3";
import { openLedger } from "../server/ledger/open-ledger";
import { tempDatabase } from "../server/testing/ledger-session";
import { percentile, printFigure } from "./report";

const SPAN_TURNS = 500;
const READS = 40;

const db = tempDatabase();
const ledger = openLedger(db.path);
const { recorder, store } = ledger;
const workspace = store.ensureWorkspace("/work/project", "project");
const sessionId = store.createSession({ workspaceId: workspace.id, agentName: "demo" }).id;
const batch = (work: () => void) => recorder.batch(work);

let turn = 0;
let tool = 0;
const update = (turnId: string, frame: Record<string, unknown>) =>
  recorder.recordUpdate(sessionId, turnId, frame);

function toolCall(turnId: string, kind: string, input: Record<string, unknown>, failed: boolean) {
  tool += 1;
  const id = `call-${tool}`;
  update(turnId, {
    sessionUpdate: "tool_call",
    toolCallId: id,
    title: `${kind} ${tool}`,
    kind,
    status: "pending",
    rawInput: input,
  });
  update(turnId, {
    sessionUpdate: "tool_call_update",
    toolCallId: id,
    status: failed ? "failed" : "completed",
    rawOutput: failed ? `Error: step ${tool} failed with exit code 1` : "ok ".repeat(40),
  });
}

function oneTurn(): void {
  turn += 1;
  const turnId = `turn-${turn}`;
  const file = `src/module-${turn % 120}/part-${turn}.ts`;
  recorder.recordInput(
    sessionId,
    turnId,
    `Please refactor handleRequest${turn % 7} in ${file} and keep the public API stable for task ${turn}.`,
  );
  toolCall(turnId, "read", { file_path: file }, false);
  toolCall(turnId, "edit", { file_path: file }, false);
  toolCall(
    turnId,
    "execute",
    { command: `npx vitest run ${file.replace(".ts", ".test.ts")}` },
    turn % 9 === 0,
  );
  if (turn % 20 === 0) {
    update(turnId, {
      sessionUpdate: "plan",
      entries: [
        { content: `Refactor module ${turn % 120}`, priority: "high", status: "in_progress" },
        { content: "Run the whole suite", priority: "medium", status: "pending" },
      ],
    });
  }
  for (let i = 0; i < 6; i += 1) {
    update(turnId, {
      sessionUpdate: "agent_message_chunk",
      messageId: `m-${turn}`,
      content: {
        type: "text",
        text: `handleRequest${turn % 7} now delegates to parseHeaders; see https://example.com/docs/${turn % 5} for the reasoning. `,
      },
    });
  }
  recorder.recordPromptCompleted(sessionId, turnId, {
    stop_reason: "end_turn",
    input_tokens: 1200,
    output_tokens: 300,
  });
}

function compaction(id: string, summary: string): void {
  turn += 1;
  const turnId = `turn-${turn}`;
  recorder.recordInput(sessionId, turnId, "/compact", { maintenance: true });
  update(turnId, { sessionUpdate: "compaction_update", compactionId: id, status: "in_progress" });
  update(turnId, {
    sessionUpdate: "compaction_summary_chunk",
    compactionId: id,
    content: { type: "text", text: summary },
  });
  update(turnId, { sessionUpdate: "compaction_update", compactionId: id, status: "completed" });
}

const buildStart = performance.now();
batch(() => {
  for (let i = 0; i < 10; i += 1) oneTurn();
  compaction(
    "cmp-1",
    "Refactoring handleRequest helpers in src/module-*; public API stays stable.",
  );
});
for (let i = 0; i < SPAN_TURNS; i += 100) {
  batch(() => {
    for (let j = 0; j < 100; j += 1) oneTurn();
  });
}
const summary = [
  "## Summary",
  "The user asks to refactor the handleRequest helpers module by module and keep the public API stable.",
  ...Array.from(
    { length: 40 },
    (_, i) =>
      `- src/module-${i}/part-${i + 11}.ts: handleRequest${i % 7} delegates to parseHeaders; npx vitest run passes.`,
  ),
].join("\n");
batch(() => compaction("cmp-2", summary));
const buildSeconds = (performance.now() - buildStart) / 1000;

const bare = new Database(db.path, { readonly: true });
const bounds = bare
  .prepare(
    "SELECT start_sequence FROM entries WHERE session_id = ? AND kind = 'compaction' ORDER BY start_sequence",
  )
  .pluck(true)
  .all(sessionId) as number[];
const [after = 0, before = 0] = bounds;
const plainSpan = bare
  .prepare(
    "SELECT start_sequence, sequence, message FROM entries WHERE session_id = ? AND start_sequence > ? AND start_sequence < ? ORDER BY start_sequence",
  )
  .raw(true);

const audit = ledger.audits.audit(sessionId, "cmp-2", []);
console.log(
  `session: ${turn} turns, span of ${audit?.span.turns} turns and ${audit?.span.messages} entries; ${audit?.counts.total} items, ${audit?.counts.dropped} dropped, ${audit?.previous?.lost.length} lost since cmp-1 (built in ${buildSeconds.toFixed(1)} s)`,
);

for (let i = 0; i < 5; i += 1) {
  JSON.stringify(ledger.audits.audit(sessionId, "cmp-2", []));
  plainSpan.all(sessionId, after, before);
}
const auditMs: number[] = [];
const plainMs: number[] = [];
for (let i = 0; i < READS; i += 1) {
  let start = performance.now();
  // What the route does: the audit, then its JSON body.
  JSON.stringify(ledger.audits.audit(sessionId, "cmp-2", []));
  auditMs.push(performance.now() - start);
  start = performance.now();
  plainSpan.all(sessionId, after, before);
  plainMs.push(performance.now() - start);
}

printFigure({
  name: "compaction audit of a 500-turn span (JSON body) p50",
  value: percentile(auditMs, 50),
  unit: "ms",
  budget: 100,
  kind: "max",
  baseline: { name: "plain read of the span's rows p50", value: percentile(plainMs, 50) },
});
printFigure({
  name: "compaction audit of a 500-turn span (JSON body) p99",
  value: percentile(auditMs, 99),
  unit: "ms",
  budget: 100,
  kind: "max",
  baseline: { name: "plain read of the span's rows p99", value: percentile(plainMs, 99) },
});

bare.close();
ledger.close();
db.cleanup();
