// Compact now and a typed `/compact` (ADR 0092): a maintenance turn that sends the agent's
// advertised compaction command, recorded as `session.compaction.requested`. The typed
// form is answered as a prompt, with the prompt's idempotency.
import { chooseCompactionCommand } from "../../../src/contract/commands";
import type { PromptAdmission, RequestedBy } from "../../domain/session-recorder-api";
import { refuse } from "../session-refusal";
import type { HostContext } from "./host-context";
import type { CompactAccepted, PromptAnswer, PromptRequest } from "./host-types";
import {
  acceptedPrompt,
  admissionOf,
  answeredBefore,
  promptFingerprint,
} from "./prompt-idempotency";
import type { Turns } from "./turns";

type TypedCompaction = {
  admission: (turnId: string) => PromptAdmission;
  text: string;
  messageId: string;
};

export function createCompactTurns(ctx: HostContext, turns: Turns) {
  const { reader, recorder, record } = ctx;

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

  return {
    compact,

    /** A typed `/compact`: Compact now, answered as a prompt, with the prompt's idempotency. */
    compactAsPrompt(
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
    },
  };
}
