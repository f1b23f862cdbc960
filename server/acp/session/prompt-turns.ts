// The turns a person asks for: prompts (a stopped session is resumed first and the prompt
// goes out once it is active), Compact now and a typed `/compact` (ADR 0092), and cancel.
import { chooseCompactionCommand } from "../../../src/contract/commands";
import type { PromptAdmission, RequestedBy } from "../../domain/session-recorder-api";
import { refuse } from "../session-refusal";
import type { AgentLauncher } from "./agent-launch";
import type { CancelTurn } from "./cancel-turn";
import type { HostContext, Runtime } from "./host-context";
import type { CompactAccepted, PromptAnswer, PromptRequest } from "./host-types";
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

type TypedCompaction = {
  admission: (turnId: string) => PromptAdmission;
  text: string;
  messageId: string;
};

export function createPromptTurns(
  ctx: HostContext,
  parts: { turns: Turns; launcher: AgentLauncher; cancel: CancelTurn; queue: PromptQueue },
) {
  const { reader, recorder, record, runtimes } = ctx;
  const { turns } = parts;

  function compact(
    sessionId: string,
    workspaceId: string | undefined,
    requestedBy: RequestedBy,
    typed?: TypedCompaction,
  ): CompactAccepted {
    const runtime = turns.claimTurn(sessionId, workspaceId);
    const command = chooseCompactionCommand(reader.availableCommands(sessionId));
    if (command === undefined) throw refuse.unsupported();
    const turn = turns.beginTurn(runtime, "compact");
    record(sessionId, "session.compaction.requested", () =>
      recorder.recordCompactionRequested(
        sessionId,
        turn.id,
        {
          command,
          requested_by: requestedBy,
          ...(typed === undefined
            ? {}
            : { typed: { text: typed.text.trim(), message_id: typed.messageId } }),
        },
        typed?.admission(turn.id),
      ),
    );
    turns.sendPrompt(sessionId, runtime, `/${command}`, true);
    return { sessionId, turnId: turn.id, command };
  }

  /** A typed `/compact`: Compact now, answered as a prompt, with the prompt's idempotency. */
  function compactAsPrompt(
    sessionId: string,
    workspaceId: string | undefined,
    request: PromptRequest,
  ): PromptAnswer {
    const fingerprint = promptFingerprint(request);
    const earlier = answeredBefore(reader, sessionId, request, fingerprint);
    if (earlier !== undefined) return earlier;
    const accepted = compact(sessionId, workspaceId, request.requestedBy ?? "http", {
      text: request.text,
      messageId: request.messageId,
      admission: (turnId) => admissionOf(request, fingerprint, acceptedPrompt(request, turnId)),
    });
    return { status: 200, prompt: acceptedPrompt(request, accepted.turnId) };
  }

  function runtimeOf(sessionId: string): Runtime {
    let runtime = runtimes.get(sessionId);
    if (runtime === undefined) {
      runtime = { state: ctx.stateOf(sessionId) };
      runtimes.set(sessionId, runtime);
    }
    return runtime;
  }

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
        return compactAsPrompt(sessionId, workspaceId, request);
      }
      const fingerprint = promptFingerprint(request);
      const earlier =
        answeredBefore(reader, sessionId, request, fingerprint) ??
        parts.queue.answeredBefore(sessionId, request);
      if (earlier !== undefined) return earlier;
      if (found.archived_at !== undefined) throw refuse.archived();
      const runtime = runtimeOf(sessionId);
      // While a turn runs (or earlier sends wait), a send waits its turn (ADR 0220).
      if (parts.queue.mustWait(sessionId, runtime)) {
        return parts.queue.admit(found, runtime, request, request.expectedTurnId);
      }
      const resuming = runtime.process === undefined && runtime.state === "stopped";
      const ready = runtime.state === "active" && runtime.process !== undefined;
      if (!ready && !resuming && runtime.state !== "starting") throw refuse.notPromptable();
      const turn = turns.beginTurn(runtime, "prompt");
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
      if (ready) turns.sendPrompt(sessionId, runtime, request.text);
      else {
        runtime.pendingPrompt = request.text;
        if (resuming) parts.launcher.launch(found, runtime, true);
        ctx.changed(sessionId);
      }
      return { status: 200, prompt: result };
    },

    compact,

    isRunningTurn(sessionId: string): boolean {
      return runtimes.get(sessionId)?.turn !== undefined;
    },

    cancel: parts.cancel,
  };
}
