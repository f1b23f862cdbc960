// The agent host: one child process per running session, its lifecycle, and its turns.
// This file only composes the jobs in ./session/ (see its modules' headers); a new
// session action belongs in the job module it extends, not here.
//
// Everything the agent says is recorded in receive order. The raw tap in agent-process.ts
// hands each line over synchronously and every recorder call is one synchronous SQLite
// transaction, so a session's work is serialized by construction: its "queue" is the
// order of lines on the child's stdout, and no handler can overtake another.
// Prompt and compact requests are decided synchronously too (check and claim the turn
// without an `await` between), so two concurrent requests can never both be accepted.
import type { ApproveBody, ApproveResult } from "../../src/contract/commands";
import { DEFAULT_REPLAY_BUDGET } from "../domain/bounded-replay";
import type { RequestedBy } from "../domain/session-recorder-api";
import { createPermissionBroker } from "./permission-broker";
import { createAgentLauncher } from "./session/agent-launch";
import { createAgentSettings } from "./session/agent-settings";
import { createAgentTrees } from "./session/agent-trees";
import { createCancelTurn } from "./session/cancel-turn";
import { recoverInterrupted } from "./session/crash-recovery";
import { createHostContext } from "./session/host-context";
import type { SessionHostDeps } from "./session/host-types";
import { createPromptQueue } from "./session/prompt-queue";
import { createPromptTurns } from "./session/prompt-turns";
import type { SteerRequest } from "./session/queue-entries";
import { createSessionDerivation } from "./session/session-derive";
import { createSessionLifecycle, createSessionStarter } from "./session/session-lifecycle";
import { createSessionList } from "./session/session-list";
import { createSessionView } from "./session/session-view";
import { createTurns } from "./session/turns";
import { createReplayKeeper } from "./session-replay";

export {
  commandsRevision,
  type McpServerEntry,
  type NamedAgent,
  type SessionHostDeps,
  type SessionToolsOffer,
} from "./session/host-types";

export type SessionHost = ReturnType<typeof createSessionHost>;

export function createSessionHost(deps: SessionHostDeps) {
  const ctx = createHostContext(deps);
  const permissions = createPermissionBroker({
    recorder: ctx.recorder,
    policy: deps.permissions ?? "ask",
    now: ctx.now,
    changed: ctx.changed,
    record: ctx.record,
  });
  const replays = createReplayKeeper({
    ledger: deps.ledger,
    budget: deps.replayBudget ?? DEFAULT_REPLAY_BUDGET,
    historyToolOffered: (sessionId) => ctx.toolsOffered(sessionId),
    log: ctx.log,
  });
  const view = createSessionView(ctx, permissions);
  const trees = createAgentTrees(ctx);
  const turns = createTurns(ctx, replays);
  const launcher = createAgentLauncher(ctx, { permissions, replays, turns, trees });
  const start = createSessionStarter(ctx, { view, launcher });
  const lifecycle = createSessionLifecycle(ctx, { view, start, permissions });
  const cancel = createCancelTurn(ctx, permissions);
  const queue = createPromptQueue(ctx, { turns, launcher, cancel });
  // Every change of a session may have left it idle with messages waiting (ADR 0220).
  ctx.onSessionChanged((sessionId) => queue.drain(sessionId));
  const derivation = createSessionDerivation(ctx, {
    replays,
    start,
    stopSession: lifecycle.stopSession,
  });

  return {
    onSessionChanged: ctx.onSessionChanged,
    view,
    ...createSessionList(ctx, view),
    ...lifecycle,
    ...derivation,
    ...createPromptTurns(ctx, { turns, launcher, cancel, queue }),
    queue: {
      list: queue.list,
      replace: queue.replace,
      withdraw: queue.withdraw,
      promote: queue.promote,
      steer: (sessionId: string, workspaceId: string, steer: SteerRequest) =>
        queue.steer(sessionId, workspaceId, steer),
    },
    ...createAgentSettings(ctx, { view, turns }),

    /** `POST …/approve`: the person's answer to a pending permission request. */
    approve(
      sessionId: string,
      workspaceId: string | undefined,
      body: ApproveBody,
      resolvedBy: RequestedBy,
    ): ApproveResult {
      ctx.requireSession(sessionId, workspaceId);
      return permissions.approve(sessionId, body, resolvedBy);
    },

    recoverInterrupted: () => recoverInterrupted(ctx),
    shutdown: trees.shutdown,
    killAllNow: trees.killAllNow,
  };
}
