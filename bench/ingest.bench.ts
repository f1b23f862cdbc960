// Durable ingest rate for one session (quality.md): agent frames through
// recorder.recordUpdate into a WAL file database, one transaction per frame, each with
// its projection update, exactly as the agent host drives it. The floor is a bare durable
// insert loop: the same frames' JSON into a one-table file database with the ledger's
// pragmas, one transaction per row. Then one message of 30,000 chunks: its last chunks
// must ingest at the rate of its first (a chunk's cost must not grow with the message).
import Database from "better-sqlite3";
import { openTestSession, tempDatabase } from "../server/testing/ledger-session";
import { printFigure } from "./report";

const FRAMES = 30_000;

const db = tempDatabase();
const { ledger, sessionId } = openTestSession(db.path);
const { recorder } = ledger;

// The frame mix of a busy turn: mostly streamed text and thoughts, tool calls with
// updates, usage readings and a compaction with chunks every few hundred frames.
function frameAt(index: number): { turnId: string; update: unknown } {
  const turnId = `turn-${Math.floor(index / 200)}`;
  const step = index % 200;
  if (step === 199)
    return { turnId, update: { sessionUpdate: "usage_update", used: index, size: 200_000 } };
  if (step >= 150 && step < 170) {
    const id = `cmp-${turnId}`;
    if (step === 150)
      return {
        turnId,
        update: { sessionUpdate: "compaction_update", compactionId: id, status: "in_progress" },
      };
    if (step === 169)
      return {
        turnId,
        update: { sessionUpdate: "compaction_update", compactionId: id, status: "completed" },
      };
    return {
      turnId,
      update: {
        sessionUpdate: "compaction_summary_chunk",
        compactionId: id,
        content: { type: "text", text: "Kept: the plan, the failing test. " },
      },
    };
  }
  if (step % 20 === 0) {
    return {
      turnId,
      update: {
        sessionUpdate: "tool_call",
        toolCallId: `call-${index}`,
        title: "Read file",
        kind: "read",
        status: "pending",
        rawInput: { path: "src/a.ts" },
      },
    };
  }
  if (step % 20 === 1) {
    return {
      turnId,
      update: {
        sessionUpdate: "tool_call_update",
        toolCallId: `call-${index - 1}`,
        status: "completed",
        rawOutput: "export const a = 1;\n".repeat(10),
      },
    };
  }
  if (step % 20 < 6)
    return {
      turnId,
      update: {
        sessionUpdate: "agent_thought_chunk",
        content: { type: "text", text: "considering the next step " },
      },
    };
  return {
    turnId,
    update: {
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: "Here is some streamed text. " },
    },
  };
}

const prepared = Array.from({ length: FRAMES }, (_, index) => frameAt(index));

/** Rows per second of a bare durable insert loop of the same frames' JSON. */
function bareInsertRate(): number {
  const file = tempDatabase();
  const bare = new Database(file.path);
  bare.pragma("journal_mode = WAL");
  bare.pragma("synchronous = NORMAL");
  bare.exec(
    "CREATE TABLE rows (session_id TEXT, sequence INTEGER, type TEXT, content TEXT, PRIMARY KEY (session_id, sequence))",
  );
  const insert = bare.prepare("INSERT INTO rows VALUES (?, ?, ?, ?)");
  const one = bare.transaction((sequence: number, frame: (typeof prepared)[number]) =>
    insert.run("s", sequence, "frame", JSON.stringify(frame.update)),
  );
  const start = performance.now();
  for (const [index, frame] of prepared.entries()) one(index, frame);
  const rate = prepared.length / ((performance.now() - start) / 1000);
  bare.close();
  file.cleanup();
  return rate;
}
const floor = bareInsertRate();
for (let i = 0; i < 500; i += 1) {
  const frame = prepared[i];
  if (frame) recorder.recordUpdate(sessionId, `warm-${frame.turnId}`, frame.update);
}

const start = performance.now();
const cpuStart = process.cpuUsage();
for (const frame of prepared) recorder.recordUpdate(sessionId, frame.turnId, frame.update);
const seconds = (performance.now() - start) / 1000;
const cpu = process.cpuUsage(cpuStart);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;

printFigure({
  name: "durable ingest, one session (WAL, synchronous=NORMAL)",
  value: FRAMES / seconds,
  unit: "frames/s",
  budget: 5000,
  kind: "min",
  baseline: { name: "bare durable insert loop", value: floor },
});
// The machine is shared: this process's CPU time shows what one free core would sustain.
printFigure({
  name: "ingest per CPU-second of this process (user+sys)",
  value: FRAMES / cpuSeconds,
  unit: "frames/s",
  budget: 5000,
  kind: "min",
});

// One streamed reply of 30,000 chunks into a single message (≈ 960 KB).
const CHUNKS = 30_000;
const WINDOW = 3000;
const chunkText = `${"x".repeat(31)} `;
const times: number[] = [];
for (let i = 0; i < CHUNKS; i += 1) {
  const at = performance.now();
  recorder.recordUpdate(sessionId, "turn-long", {
    sessionUpdate: "agent_message_chunk",
    messageId: "long-reply",
    content: { type: "text", text: chunkText },
  });
  times.push(performance.now() - at);
}
const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
const firstRate = WINDOW / (sum(times.slice(0, WINDOW)) / 1000);
const lastRate = WINDOW / (sum(times.slice(-WINDOW)) / 1000);
printFigure({
  name: "one 30,000-chunk message: frames/s over its last 3,000 chunks",
  value: lastRate,
  unit: "frames/s",
  budget: 5000,
  kind: "min",
  baseline: { name: "bare durable insert loop", value: floor },
});
printFigure({
  name: "one 30,000-chunk message: last 3,000 chunks' rate ÷ first 3,000's",
  value: lastRate / firstRate,
  unit: "×",
  budget: 0.8,
  kind: "min",
});

ledger.close();
db.cleanup();
