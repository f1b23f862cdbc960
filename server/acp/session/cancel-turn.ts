// Cancelling the running turn: asked for by Stop, and by a steer or interrupt that replaces
// the turn with a queued message (ADR 0220).
import type { PermissionBroker } from "../permission-broker";
import type { HostContext } from "./host-context";
import type { CancelResult } from "./host-types";

export type CancelTurn = ReturnType<typeof createCancelTurn>;

export function createCancelTurn(ctx: HostContext, permissions: PermissionBroker) {
  const { recorder, record, runtimes } = ctx;

  /** Cancels the running turn; idempotent, like CompozyOS's: nothing running is an answer. */
  return async function cancel(sessionId: string, workspaceId?: string): Promise<CancelResult> {
    ctx.requireSession(sessionId, workspaceId);
    const runtime = runtimes.get(sessionId);
    const turn = runtime?.turn;
    if (runtime === undefined || turn === undefined) {
      return { session_id: sessionId, outcome: "nothing-in-flight" };
    }
    if (runtime.pendingPrompt !== undefined) {
      // Never sent (the session is still resuming): the turn ends here.
      runtime.pendingPrompt = undefined;
      runtime.turn = undefined;
      record(sessionId, "prompt.completed", () =>
        recorder.recordPromptCompleted(sessionId, turn.id, { stop_reason: "cancelled" }),
      );
      ctx.changed(sessionId);
    } else if (runtime.process !== undefined && runtime.acpSessionId !== undefined) {
      const cancelled = runtime.process.cancel(runtime.acpSessionId);
      // ACP: after session/cancel, every pending permission request answers `cancelled`.
      permissions.cancelTurn(sessionId);
      await cancelled.catch((error: unknown) => {
        ctx.log(`[${sessionId}] session/cancel failed: ${String(error)}`);
      });
    }
    return { session_id: sessionId, outcome: "canceled", turn_id: turn.id };
  };
}
