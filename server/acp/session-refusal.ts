// Why the host refused a request, in the contract's words. The HTTP layer maps each
// reason to its status; the host stays free of HTTP.
export const REFUSAL_MESSAGES = {
  session_busy: "session: prompt already in progress",
  compaction_unsupported: "session: agent does not advertise a compaction command",
  session_not_promptable: "session: not active",
  session_archived: "session: session is archived",
  session_not_stopped: "session: session must be stopped before archiving",
  prompt_idempotency_conflict: "store: session prompt idempotency conflict",
  session_continued: "session: continued in another session",
  session_delete_busy: "session: a turn is running; stop it before deleting the session",
  prompt_not_in_progress: "session: no turn is in progress",
  active_turn_mismatch: "session: the active turn is not the expected one",
  queue_entry_not_queued: "store: session input queue entry is not queued",
  session_queue_full: "store: session input queue full",
} as const;

export type RefusalCode =
  | "not_found"
  | "invalid_request"
  | "session_not_promptable"
  | "session_busy"
  | "compaction_unsupported"
  | "session_archived"
  | "session_not_stopped"
  | "prompt_idempotency_conflict"
  | "session_continued"
  | "prompt_not_in_progress"
  | "active_turn_mismatch"
  | "queue_entry_not_queued"
  | "session_queue_full"
  | "permission_resolved"
  | "permission_ambiguous"
  | "agent_request_failed";

export class SessionRefusal extends Error {
  readonly code: RefusalCode;
  readonly details: Record<string, string> | undefined;

  constructor(code: RefusalCode, message: string, details?: Record<string, string>) {
    super(message);
    this.name = "SessionRefusal";
    this.code = code;
    this.details = details;
  }
}

export const refuse = {
  notFound: (what: string) => new SessionRefusal("not_found", `${what} not found`),
  invalid: (message: string, details?: Record<string, string>) =>
    new SessionRefusal("invalid_request", message, details),
  permissionResolved: (message: string) => new SessionRefusal("permission_resolved", message),
  permissionAmbiguous: (message: string) => new SessionRefusal("permission_ambiguous", message),
  /** The agent answered `session/set_mode` or `session/set_config_option` with an error. */
  agentFailed: (message: string) => new SessionRefusal("agent_request_failed", message),
  notPromptable: () =>
    new SessionRefusal("session_not_promptable", REFUSAL_MESSAGES.session_not_promptable),
  busy: () => new SessionRefusal("session_busy", REFUSAL_MESSAGES.session_busy),
  /** Deleting would kill the agent mid-turn: the person stops the turn first. */
  deleteBusy: () => new SessionRefusal("session_busy", REFUSAL_MESSAGES.session_delete_busy),
  notInProgress: () =>
    new SessionRefusal("prompt_not_in_progress", REFUSAL_MESSAGES.prompt_not_in_progress),
  turnMismatch: (expected: string) =>
    new SessionRefusal(
      "active_turn_mismatch",
      `${REFUSAL_MESSAGES.active_turn_mismatch} (${expected})`,
    ),
  notQueued: (id: string) =>
    new SessionRefusal(
      "queue_entry_not_queued",
      `${REFUSAL_MESSAGES.queue_entry_not_queued}: ${id}`,
    ),
  queueFull: () => new SessionRefusal("session_queue_full", REFUSAL_MESSAGES.session_queue_full),
  unsupported: () =>
    new SessionRefusal("compaction_unsupported", REFUSAL_MESSAGES.compaction_unsupported),
  archived: () => new SessionRefusal("session_archived", REFUSAL_MESSAGES.session_archived),
  notStopped: () => new SessionRefusal("session_not_stopped", REFUSAL_MESSAGES.session_not_stopped),
  /** A continued session is read-only: its conversation goes on in `successor` (ADR 0136). */
  continued: (successor: string) =>
    new SessionRefusal(
      "session_continued",
      `${REFUSAL_MESSAGES.session_continued}: this conversation goes on in session ${successor}; send there, or fork this one`,
      { continued_in: successor },
    ),
  idempotencyConflict: (key: string) =>
    new SessionRefusal(
      "prompt_idempotency_conflict",
      `${REFUSAL_MESSAGES.prompt_idempotency_conflict}: idempotency_key "${key}" is already bound to another request`,
    ),
};
