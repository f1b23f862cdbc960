// At daemon start: sessions whose last state is not `stopped` lost their agent when the
// daemon died. Close what they left open (permissions, compactions, the turn) so nothing
// spins forever, as the agent's exit would have.
import type { HostContext } from "./host-context";

/** The newest turn, when it never got its `prompt.completed` (the daemon died mid-turn). */
function unfinishedTurn(ctx: HostContext, sessionId: string): string | undefined {
  const newest = ctx.reader.usageTurns(sessionId).turns.at(-1);
  if (newest === undefined) return undefined;
  const completed = ctx.reader.events(sessionId, {
    turn_id: newest.turn_id,
    type: "prompt.completed",
    limit: 1,
  });
  return completed.events.length === 0 ? newest.turn_id : undefined;
}

function closeInterrupted(ctx: HostContext, sessionId: string): void {
  const { recorder, record } = ctx;
  const turnId = unfinishedTurn(ctx, sessionId);
  for (const open of ctx.reader.unresolvedPermissions(sessionId)) {
    record(sessionId, "permission.resolved", () =>
      recorder.recordPermissionResolved(sessionId, open.turn_id, {
        request_id: open.request_id,
        tool_call_id: open.tool_call_id,
        outcome: "cancelled",
        status: "orphaned",
        resolved_by: "daemon",
        reason: "daemon restarted",
      }),
    );
  }
  record(sessionId, "compaction close", () =>
    recorder.closeOpenCompactions(sessionId, turnId ?? null),
  );
  if (turnId !== undefined) {
    record(sessionId, "prompt.completed", () =>
      recorder.recordPromptCompleted(sessionId, turnId, { stop_reason: "agent_exited" }),
    );
  }
  record(sessionId, "session.state", () =>
    recorder.recordState(sessionId, "stopped", "daemon restarted"),
  );
}

/** Closes every interrupted session; answers how many there were. */
export function recoverInterrupted(ctx: HostContext): number {
  let recovered = 0;
  for (const session of ctx.store.listSessions({})) {
    if (ctx.runtimes.has(session.id)) continue;
    if (ctx.reader.lastState(session.id).state === "stopped") continue;
    closeInterrupted(ctx, session.id);
    recovered += 1;
  }
  return recovered;
}
