// A session's turn: claimed synchronously (no `await` between the check and the claim, so
// two concurrent requests can never both be accepted) and sent to the agent.
import { randomUUID } from "node:crypto";
import type { AgentProcess } from "../agent-process";
import { refuse } from "../session-refusal";
import type { ReplayKeeper } from "../session-replay";
import type { HostContext, Runtime, Turn } from "./host-context";

export type Turns = ReturnType<typeof createTurns>;

export function createTurns(ctx: HostContext, replays: ReplayKeeper) {
  return {
    /** Claims the turn synchronously; throws the contract's refusal otherwise. */
    claimTurn(sessionId: string, workspaceId: string | undefined): Runtime {
      ctx.requireSession(sessionId, workspaceId);
      const runtime = ctx.runtimes.get(sessionId);
      if (runtime === undefined || runtime.state !== "active" || runtime.process === undefined) {
        throw refuse.notPromptable();
      }
      if (runtime.turn !== undefined) throw refuse.busy();
      return runtime;
    },

    beginTurn(runtime: Runtime, kind: Turn["kind"]): Turn {
      const turn: Turn = { id: randomUUID(), startedAt: ctx.now().toISOString(), kind };
      runtime.turn = turn;
      return turn;
    },

    /** An ordinary prompt carries an owed replay; a maintenance turn never does (ADR 0086). */
    sendPrompt(sessionId: string, runtime: Runtime, text: string, maintenance = false): void {
      const proc = runtime.process;
      const acpSessionId = runtime.acpSessionId;
      if (proc === undefined || acpSessionId === undefined) return;
      if (maintenance) proc.prompt(acpSessionId, text);
      else {
        proc.prompt(acpSessionId, replays.promptText(sessionId, acpSessionId, text));
        replays.delivered(sessionId, acpSessionId);
      }
      ctx.changed(sessionId);
    },

    /** The running agent of an active session, for a request outside a turn. */
    liveAgent(sessionId: string): { proc: AgentProcess; acpSessionId: string } {
      const runtime = ctx.runtimes.get(sessionId);
      const proc = runtime?.process;
      if (runtime?.state !== "active" || proc === undefined || runtime.acpSessionId === undefined) {
        throw refuse.notPromptable();
      }
      return { proc, acpSessionId: runtime.acpSessionId };
    },
  };
}
