// Whether the composer can send now, and what its hint line says. An `active` session takes
// a prompt, and so does a `stopped` one (the prompt resumes it, as CompozyOS does); sending
// while it starts or stops would only earn a refusal that outlives the reason for it. The
// draft stays editable either way.
import { ApiError } from "../../api/http";
import type { Session } from "../../contract/session";

export const COMPOSER_HINT = "Ctrl/⌘ + Enter to send";
/** While a turn runs, a send waits in the queue (ADR 0220). */
export const QUEUE_HINT = "A turn is running: Send queues your message (Ctrl/⌘ + Enter)";

const IN_TRANSITION: Partial<Record<Session["state"], string>> = {
  starting: "Session is starting",
  stopping: "Session is stopping",
};

/** Why Send is unavailable for this session, or undefined when it can send. */
export function sendBlockedReason(session: Pick<Session, "state"> | undefined): string | undefined {
  if (!session) return undefined;
  return IN_TRANSITION[session.state];
}

/**
 * A failure after which the daemon may or may not have the send: the network dropped, or
 * it failed on its side. Trying again must reuse the send's identity. A refusal (4xx) is
 * the daemon's answer, so the next Send is a new send.
 */
export function isRetryableSendError(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}
