// The error envelope of every non-2xx answer (CompozyOS `internal/api/core` respondError).
import { z } from "./zod";

/** Every code the reference daemon may put in an error envelope. */
export const ERROR_CODES = [
  "invalid_request",
  "session_not_promptable",
  "not_found",
  "session_busy",
  "session_archived",
  "session_not_stopped",
  "compaction_unsupported",
  "prompt_idempotency_conflict",
  "session_continued",
  "prompt_not_in_progress",
  "active_turn_mismatch",
  "queue_entry_not_queued",
  "session_queue_full",
  "permission_resolved",
  "permission_ambiguous",
  "agent_request_failed",
  "forbidden_origin",
  "unauthorized",
  "payload_too_large",
  "internal",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** CompozyOS's structured diagnostic, kept opaque: a client shows `error`, not this. */
const Diagnostic = z.looseObject({ code: z.string(), message: z.string() });

/**
 * The body of every non-2xx answer. `code` stays a free string when parsing so a newer
 * daemon's codes still reach the user instead of failing the parse.
 */
export const ErrorEnvelope = z.object({
  error: z.string(),
  code: z.optional(z.string()),
  details: z.optional(z.record(z.string(), z.string())),
  diagnostic: z.nullish(Diagnostic),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
