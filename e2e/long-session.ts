// A long stopped session written straight into a fresh ledger through the recorder (three
// entries a turn), served by a daemon of its own: what the long-history specs open. One
// daemon per spec file, started on first use and stopped after the file's last test.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openLedger } from "../server/ledger/open-ledger";
import { type Daemon, removeDataDir, startDaemon } from "./daemon";
import { test } from "./fixtures";

export type LongSessionPlan = {
  name: string;
  turns: number;
  /** The person's message of each turn. */
  message: (turn: number) => string;
  /** A completed compaction with a Markdown summary in this turn. */
  compactionAt?: number;
};

function seed(dataDir: string, plan: LongSessionPlan) {
  const ledger = openLedger(join(dataDir, "tideline.db"));
  const ws = ledger.store.ensureWorkspace(join(dataDir, "workspace"), "workspace");
  const session = ledger.store.createSession({
    workspaceId: ws.id,
    agentName: "demo",
    name: plan.name,
  });
  const { recorder } = ledger;
  recorder.recordState(session.id, "active");
  for (let turn = 1; turn <= plan.turns; turn += 1) {
    const turnId = `turn-${turn}`;
    recorder.recordInput(session.id, turnId, plan.message(turn));
    recorder.recordUpdate(session.id, turnId, {
      sessionUpdate: "agent_message_chunk",
      messageId: `m-${turn}`,
      content: { type: "text", text: `Turn ${turn}: done.` },
    });
    recorder.recordUpdate(session.id, turnId, {
      sessionUpdate: "tool_call",
      toolCallId: `call-${turn}`,
      title: `Read src/file-${turn}.ts`,
      kind: "read",
      status: "completed",
    });
    if (turn === plan.compactionAt) {
      recorder.recordUpdate(session.id, turnId, {
        sessionUpdate: "compaction_update",
        compactionId: "cmp-last",
        status: "completed",
        summary: [{ type: "text", text: `## Goal\n\n${"- kept the plan\n".repeat(12)}` }],
      });
    }
    recorder.recordPromptCompleted(session.id, turnId, { stop_reason: "end_turn" });
  }
  recorder.recordState(session.id, "stopped", "seeded");
  ledger.close();
  return { workspaceId: ws.id, sessionId: session.id };
}

/** The spec file's long session: `open()` gives its daemon and the session's page path. */
export function longSessionFor(plan: LongSessionPlan) {
  let seeded: { daemon: Daemon; path: string } | undefined;
  test.afterAll(async () => {
    if (seeded === undefined) return;
    await seeded.daemon.stop();
    removeDataDir(seeded.daemon);
  });
  return async function open() {
    if (seeded !== undefined) return seeded;
    const dataDir = mkdtempSync(join(tmpdir(), "tideline-e2e-long-"));
    const ids = seed(dataDir, plan);
    const daemon = await startDaemon(["--no-welcome"], { dataDir });
    seeded = { daemon, path: `${daemon.url}/w/${ids.workspaceId}/s/${ids.sessionId}` };
    return seeded;
  };
}
