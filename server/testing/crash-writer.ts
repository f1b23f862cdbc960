// Child process for the SIGKILL test: appends frames to one session as fast as it can
// until it is killed. Prints "ready" once the first commit is durable.
import { openLedger } from "../ledger/open-ledger";

const [path, sessionId] = process.argv.slice(2);
if (path === undefined || sessionId === undefined) throw new Error("usage: <db> <session>");
const { recorder } = openLedger(path);
let turn = 0;
for (;;) {
  turn += 1;
  const turnId = `turn-${turn}`;
  recorder.recordInput(sessionId, turnId, `prompt ${turn}`);
  recorder.recordUpdate(sessionId, turnId, {
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text: "a" },
  });
  recorder.recordUpdate(sessionId, turnId, {
    sessionUpdate: "tool_call",
    toolCallId: `t${turn}`,
    title: "Read",
    kind: "read",
  });
  recorder.recordUpdate(sessionId, turnId, {
    sessionUpdate: "compaction_summary_chunk",
    compactionId: `c${turn}`,
    content: { type: "text", text: "s" },
  });
  recorder.recordUpdate(sessionId, turnId, {
    sessionUpdate: "compaction_update",
    compactionId: `c${turn}`,
    status: "completed",
  });
  recorder.recordUpdate(sessionId, turnId, {
    sessionUpdate: "usage_update",
    used: turn,
    size: 1000,
  });
  if (turn === 1) process.stdout.write("ready\n");
}
