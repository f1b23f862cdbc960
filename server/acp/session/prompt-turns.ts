// The turns a person asks for: prompts (a stopped session is resumed first and the prompt
// goes out once it is active), Compact now and a typed `/compact` (compact-turns.ts), and
// cancel.
import { chooseCompactionCommand } from "../../../src/contract/commands";
import type { SessionRecord } from "../../domain/session-recorder-api";
import { refuse } from "../session-refusal";
import type { AgentLauncher } from "./agent-launch";
import type { CancelTurn } from "./cancel-turn";
import { createCompactTurns } from "./compact-turns";
import type { HostContext, Runtime } from "./host-context";
import type { PromptAnswer, PromptRequest } from "./host-types";
import {
  acceptedPrompt,
  admissionOf,
  answeredBefore,
  promptFingerprint,
  replayedAnswer,
} from "./prompt-idempotency";
import type { PromptQueue } from "./prompt-queue";
import { successorOf } from "./session-lineage";
import type { Turns } from "./turns";

function runtimeOf(ctx: HostContext, sessionId: string): Runtime {
  let runtime = ctx.runtimes.get(sessionId);
  if (runtime === undefined) {
    runtime = { state: ctx.stateOf(sessionId) };
    ctx.runtimes.set(sessionId, runtime);
  }
  return runtime;
}

/**
 * Claims the turn for a prompt no earlier send answered and records it; it goes out now
 * when the session is active, else once the (resumed) session is.
 */
function startPrompt(
  ctx: HostContext,
  parts: { turns: Turns; launcher: AgentLauncher },
  found: SessionRecord,
  runtime: Runtime,
  request: PromptRequest,
  fingerprint: string,
): PromptAnswer {
  const { reader, recorder, record } = ctx;
  const sessionId = found.id;
  const resuming = runtime.process === undefined && runtime.state === "stopped";
  const ready = runtime.state === "active" && runtime.process !== undefined;
  if (!ready && !resuming && runtime.state !== "starting") throw refuse.notPromptable();
  const turn = parts.turns.beginTurn(runtime, "prompt");
  const result = acceptedPrompt(request, turn.id);
  const rows = record(sessionId, "input", () =>
    recorder.recordPrompt(
      sessionId,
      turn.id,
      request.text,
      admissionOf(request, fingerprint, result),
    ),
  );
  if (rows.length === 0) {
    // Not recorded (e.g. a concurrent send with the same key won): nothing was claimed.
    runtime.turn = undefined;
    const winner = reader.promptAdmission(sessionId, request.idempotencyKey);
    if (winner?.fingerprint === fingerprint) return replayedAnswer(winner);
    throw refuse.busy();
  }
  if (ready) parts.turns.sendPrompt(sessionId, runtime, request.text);
  else {
    runtime.pendingPrompt = request.text;
    if (resuming) parts.launcher.launch(found, runtime, true);
    ctx.changed(sessionId);
  }
  return { status: 200, prompt: result };
}

export function createPromptTurns(
  ctx: HostContext,
  parts: { turns: Turns; launcher: AgentLauncher; cancel: CancelTurn; queue: PromptQueue },
) {
  const { reader, runtimes } = ctx;
  const compaction = createCompactTurns(ctx, parts.turns);

  return {
    /**
     * Sends a prompt. A key seen before answers with the first send's result (`replayed`),
     * never a second turn; the same key for a different request is a conflict. A stopped
     * session is resumed first (`session/load` when the agent supports it) and the prompt
     * goes out once it is active.
     */
    prompt(
      sessionId: string,
      workspaceId: string | undefined,
      request: PromptRequest,
    ): PromptAnswer {
      const found = ctx.requireSession(sessionId, workspaceId);
      // A continued session is read-only: sending there would split the conversation.
      const successor = successorOf(ctx.deps.ledger.settings, sessionId);
      if (successor !== undefined) throw refuse.continued(successor);
      // Typing exactly the advertised compaction command is Compact now (ADR 0092).
      const command = chooseCompactionCommand(reader.availableCommands(sessionId));
      if (command !== undefined && request.text.trim() === `/${command}`) {
        return compaction.compactAsPrompt(sessionId, workspaceId, request);
      }
      const fingerprint = promptFingerprint(request);
      const earlier =
        answeredBefore(reader, sessionId, request, fingerprint) ??
        parts.queue.answeredBefore(sessionId, request);
      if (earlier !== undefined) return earlier;
      if (found.archived_at !== undefined) throw refuse.archived();
      const runtime = runtimeOf(ctx, sessionId);
      // While a turn runs (or earlier sends wait), a send waits its turn (ADR 0220).
      if (parts.queue.mustWait(sessionId, runtime)) {
        return parts.queue.admit(found, runtime, request, request.expectedTurnId);
      }
      return startPrompt(ctx, parts, found, runtime, request, fingerprint);
    },

    compact: compaction.compact,

    isRunningTurn(sessionId: string): boolean {
      return runtimes.get(sessionId)?.turn !== undefined;
    },

    cancel: parts.cancel,
  };
}
