// Prompt idempotency: a send is stored with its key and a fingerprint of what was sent, so
// a retry with the same key answers the first result (`replayed`, nothing runs twice) and
// the same key for a different message is a conflict.
import { createHash } from "node:crypto";
import type { PromptAdmission, SessionReader } from "../../domain/session-recorder-api";
import { refuse } from "../session-refusal";
import type { PromptAnswer, PromptRequest, PromptResult } from "./host-types";

export function promptFingerprint(request: PromptRequest): string {
  return createHash("sha256")
    .update(JSON.stringify([request.messageId, request.text, request.mode ?? ""]))
    .digest("hex");
}

/** A prompt accepted into turn `turnId`, in CompozyOS's `SendPromptResultPayload` shape. */
export function acceptedPrompt(request: PromptRequest, turnId: string): PromptResult {
  return {
    status: "accepted",
    ...(request.mode === undefined ? {} : { mode: request.mode }),
    delivery: "direct",
    message_id: request.messageId,
    idempotency_key: request.idempotencyKey,
    replayed: false,
    new_turn_id: turnId,
  };
}

/** What is stored with a send so a retry with the same key answers the same. */
export function admissionOf(
  request: PromptRequest,
  fingerprint: string,
  result: PromptResult,
): PromptAdmission {
  return {
    idempotency_key: request.idempotencyKey,
    message_id: request.messageId,
    fingerprint,
    result,
  };
}

/** The stored first answer, as a retry receives it. */
export function replayedAnswer(admission: PromptAdmission): PromptAnswer {
  return { status: 202, prompt: { ...(admission.result as PromptResult), replayed: true } };
}

/**
 * The first answer to a send with this idempotency key, marked replayed; a different
 * message under the same key is refused.
 */
export function answeredBefore(
  reader: SessionReader,
  sessionId: string,
  request: PromptRequest,
  fingerprint: string,
): PromptAnswer | undefined {
  const earlier = reader.promptAdmission(sessionId, request.idempotencyKey);
  if (earlier === undefined) return undefined;
  if (earlier.fingerprint !== fingerprint) {
    throw refuse.idempotencyConflict(request.idempotencyKey);
  }
  return replayedAnswer(earlier);
}
