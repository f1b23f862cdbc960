// A 10,000-entry session written straight into a ledger file through the recorder, exactly
// as the agent host would have written it: what the SPA and warm-start benches open.
import { join } from "node:path";
import { openLedger } from "../server/ledger/open-ledger";

const ENTRIES = 10_000;

export function seedSession(
  dataDir: string,
  workspace: string,
): { workspaceId: string; sessionId: string } {
  const ledger = openLedger(join(dataDir, "tideline.db"));
  const ws = ledger.store.ensureWorkspace(workspace, "bench");
  const session = ledger.store.createSession({
    workspaceId: ws.id,
    agentName: "demo",
    name: "10,000 entries",
  });
  const { recorder } = ledger;
  recorder.recordState(session.id, "active");
  let entries = 0;
  for (let turn = 1; entries < ENTRIES; turn += 1) {
    const turnId = `turn-${turn}`;
    recorder.recordInput(session.id, turnId, `Step ${turn}: refine the **ledger** projection`);
    recorder.recordUpdate(session.id, turnId, {
      sessionUpdate: "agent_message_chunk",
      messageId: `m-${turn}`,
      content: {
        type: "text",
        text: `Turn ${turn}. Here is the plan:\n\n- read the rows\n- fold them\n\n\`\`\`ts\nconst x = ${turn};\n\`\`\``,
      },
    });
    recorder.recordUpdate(session.id, turnId, {
      sessionUpdate: "tool_call",
      toolCallId: `call-${turn}`,
      title: `Read src/file-${turn}.ts`,
      kind: "read",
      status: "completed",
    });
    recorder.recordUpdate(session.id, turnId, {
      sessionUpdate: "usage_update",
      used: 1000 + turn,
      size: 200_000,
    });
    entries += 3;
    if (turn % 50 === 0) {
      const compactionId = `cmp-${turn}`;
      recorder.recordUpdate(session.id, turnId, {
        sessionUpdate: "compaction_update",
        compactionId,
        status: "in_progress",
      });
      recorder.recordUpdate(session.id, turnId, {
        sessionUpdate: "compaction_update",
        compactionId,
        status: "completed",
        summary: [{ type: "text", text: `## Summary of turns up to ${turn}\n\n- kept the plan` }],
      });
      entries += 1;
    }
    recorder.recordPromptCompleted(session.id, turnId, {
      stop_reason: "end_turn",
      input_tokens: 100,
      output_tokens: 40,
    });
  }
  recorder.recordState(session.id, "stopped", "bench seed");
  ledger.close();
  return { workspaceId: ws.id, sessionId: session.id };
}
