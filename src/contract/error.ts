import { z } from "zod";

/** Every code the daemon may put in an error envelope (wire-contract.md, Errors). */
export const ERROR_CODES = [
  "invalid_request",
  "session_not_promptable",
  "not_found",
  "session_busy",
  "compaction_unsupported",
  "no_active_turn",
  "forbidden_origin",
  "unauthorized",
  "payload_too_large",
  "internal",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The body of every non-2xx answer. `code` stays a free string when parsing so a newer
 * daemon's codes still reach the user instead of failing the parse.
 */
export const ErrorEnvelope = z.object({
  error: z.string(),
  code: z.string().optional(),
  details: z.record(z.string(), z.string()).optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
