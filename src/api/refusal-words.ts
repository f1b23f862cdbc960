// A refusal in plain words. The daemon's `error` text is written for logs ("session: prompt
// already in progress"); a person gets a sentence that says what happened and what to do.
// Codes this table does not know (a newer daemon's) keep the daemon's own text, which is
// still the best information there is. Also: when a refusal stops applying (the turn it
// waited on ended, the session it found starting is up), so it can be taken away.
import { isApiError } from "./http";

/** Every code in `ERROR_CODES`, CompozyOS's session and gateway codes, and the client's own. */
const PLAIN_WORDS: Readonly<Record<string, string>> = {
  network: "Couldn't reach the daemon. Check that it is running.",
  session_busy: "The agent is still working on a turn. Try again when it ends, or stop it first.",
  session_queue_full: "The session's queue is full. Try again when the current turn ends.",
  prompt_not_in_progress: "No turn is running now, so there is nothing to steer.",
  active_turn_mismatch: "The turn you meant to steer has already ended. Look again and retry.",
  queue_entry_not_queued: "That queued message has already been sent or removed.",
  session_locked: "Another operation holds this session. Try again in a moment.",
  session_not_promptable: "The session isn't running right now, so it can't take this.",
  session_archived: "This session is archived. Unarchive it to send messages.",
  session_not_stopped: "Only a stopped session can be archived. Stop it first.",
  session_continued:
    "This session was continued in a new one, which carries on from here. Open it to go on, or fork this one.",
  session_resume_ambiguous: "The daemon couldn't tell which session to resume.",
  compaction_unsupported: "This agent has no compaction command, so it can't compact on request.",
  prompt_idempotency_conflict:
    "This send was already used for a different message. Send it again as a new message.",
  prompt_message_identity_conflict:
    "This send was already used for a different message. Send it again as a new message.",
  prompt_dispatch_indeterminate:
    "The daemon couldn't confirm the message reached the agent. Check the timeline before sending it again.",
  permission_resolved: "This request was already answered (perhaps in another tab).",
  permission_ambiguous: "Several requests are waiting: answer each one from its own row.",
  not_found: "The daemon no longer has this. It may have been deleted.",
  forbidden_origin:
    "The daemon refused this page's address. Open Tideline at the address the daemon printed.",
  unauthorized: "The daemon needs its access token: open the link with #token=… it printed.",
  payload_too_large: "That is too large for the daemon to accept.",
  internal: "The daemon hit an internal error. Try again; its log has the details.",
  upstream_unreachable: "Tideline can't reach the CompozyOS daemon it forwards to.",
  gateway_device_unauthenticated: "CompozyOS refused Tideline's device credential.",
  gateway_device_revoked: "CompozyOS revoked Tideline's device credential.",
};

/** Codes whose own text is the information (which field, what the agent said): kept, framed. */
const FRAMED: Readonly<Record<string, string>> = {
  invalid_request: "The daemon refused the request",
  agent_request_failed: "The agent refused",
};

/** What to show for a failed request: plain words for a known code, the daemon's otherwise. */
export function refusalText(error: unknown): string {
  if (isApiError(error)) {
    const code = error.code;
    if (code !== undefined) {
      const plain = Object.hasOwn(PLAIN_WORDS, code) ? PLAIN_WORDS[code] : undefined;
      if (plain) return plain;
      const frame = Object.hasOwn(FRAMED, code) ? FRAMED[code] : undefined;
      if (frame) return `${frame}: ${error.message}`;
    }
    return error.message;
  }
  if (error instanceof Error) return error.message;
  return "Something went wrong.";
}

/** Refusals that hold only while a turn runs: they clear when that turn ends. */
const WHILE_A_TURN_RUNS = new Set(["session_busy", "session_queue_full"]);

/** A refusal, with what the session was doing when it was seen. */
export type Refusal = {
  message: string;
  code: string | undefined;
  /** The turn running when it was seen (undefined: none in our copy of the session). */
  turnId: string | undefined;
  /** The session's state when it was seen. */
  state: string | undefined;
};

export function refusalOf(
  error: unknown,
  session: { turnId: string | undefined; state: string | undefined },
): Refusal {
  return {
    message: refusalText(error),
    code: isApiError(error) ? error.code : undefined,
    turnId: session.turnId,
    state: session.state,
  };
}

/**
 * The refusal as the session moves on. A "busy" refusal clears when the turn it waited on
 * ends; one seen while our copy showed no turn (another client got there first) follows
 * the turn that then starts and clears when that one ends. "Not running" clears when the
 * session's state changes. Any other refusal stays until the next attempt.
 */
export function followRefusal(
  refusal: Refusal | null,
  now: { turnId: string | undefined; state: string | undefined },
): Refusal | null {
  if (!refusal) return null;
  if (refusal.code === "session_not_promptable") {
    return refusal.state === now.state ? refusal : null;
  }
  if (refusal.code === undefined || !WHILE_A_TURN_RUNS.has(refusal.code)) return refusal;
  if (refusal.turnId === now.turnId) return refusal;
  // The turn it waited on is over (whether or not another one has started since).
  if (refusal.turnId !== undefined || now.turnId === undefined) return null;
  return { ...refusal, turnId: now.turnId };
}
