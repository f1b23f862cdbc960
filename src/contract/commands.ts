// Prompt, cancel, approve, the command catalog and Compact now: request bodies and their
// answers (CompozyOS `internal/api/contract/prompt.go`, `session_prompt_cancel.go`,
// `session_commands.go`; Compact now from the October "Context compaction" release).

import { Id, Int64, Timestamp } from "./primitives";
import { z } from "./zod";

export const PROMPT_MAX_CHARS = 100_000;
export const IDEMPOTENCY_KEY_MAX = 200;

/** How input is handled while a turn runs (CompozyOS `PromptMode`). */
const PROMPT_MODES = ["queue", "interrupt", "steer"] as const;
export const PromptMode = z.enum(PROMPT_MODES);
export type PromptMode = z.infer<typeof PromptMode>;

/**
 * One AI-SDK style input message (CompozyOS `PromptUIMessage`). Bound as CompozyOS binds it:
 * fields it does not read (`metadata`, a part's `state`) are ignored, not refused.
 */
export const PromptUIMessage = z.object({
  id: z.optional(z.string().check(z.maxLength(200))),
  role: z.string().check(z.minLength(1)).check(z.maxLength(32)),
  content: z.optional(z.string().check(z.maxLength(PROMPT_MAX_CHARS))),
  parts: z.optional(
    z
      .array(
        z.object({
          type: z.optional(z.string().check(z.maxLength(64))),
          text: z.optional(z.string().check(z.maxLength(PROMPT_MAX_CHARS))),
        }),
      )
      .check(z.maxLength(100)),
  ),
});
export type PromptUIMessage = z.infer<typeof PromptUIMessage>;

/** The text a prompt carries: `message`, else the last user message of `messages`. */
export function promptText(body: {
  message?: string | undefined;
  messages?: ReadonlyArray<PromptUIMessage> | undefined;
}): string {
  if (body.message !== undefined && body.message.trim() !== "") return body.message;
  const last = [...(body.messages ?? [])].reverse().find((message) => message.role === "user");
  if (last === undefined) return "";
  if (last.content !== undefined && last.content.trim() !== "") return last.content;
  return (last.parts ?? [])
    .filter((part) => part.type === undefined || part.type === "text")
    .map((part) => part.text ?? "")
    .join("");
}

/** CompozyOS `PromptRuntimeSelectionPayload`: a per-prompt model choice. */
const PromptRuntime = z.object({
  provider: z.string().check(z.maxLength(200)),
  model: z.optional(z.string().check(z.maxLength(200))),
  reasoning_effort: z.optional(z.string().check(z.maxLength(32))),
  speed: z.optional(z.string().check(z.maxLength(32))),
});

/**
 * `POST …/prompt` body (CompozyOS `SendPromptRequest`). `message_id` names the user message;
 * `idempotency_key` makes a retried send answer with the first send's result instead of
 * running twice. Bound like CompozyOS's handler (`ShouldBindJSON`): a field it does not
 * know is ignored; a known one of the wrong type is refused. `runtime` and
 * `expected_turn_id` are accepted and not acted on (the agent's own model stays), and
 * attachments, which the reference daemon cannot deliver, are refused rather than dropped.
 */
export const PromptBody = z
  .object({
    message: z.optional(z.string().check(z.maxLength(PROMPT_MAX_CHARS))),
    messages: z.optional(z.array(PromptUIMessage).check(z.maxLength(100))),
    message_id: Id.check(z.maxLength(200)),
    idempotency_key: Id.check(z.maxLength(IDEMPOTENCY_KEY_MAX)),
    mode: z.optional(PromptMode),
    expected_turn_id: z.optional(z.string().check(z.maxLength(200))),
    runtime: z.nullish(PromptRuntime),
    attachments: z.optional(
      z
        .array(z.unknown())
        .check(z.maxLength(0, { message: "attachments are not supported by this daemon" })),
    ),
  })
  .check(
    z.refine((body) => promptText(body).trim() !== "", {
      message: "message is required",
      path: ["message"],
    }),
  )
  .check(
    z.refine((body) => promptText(body).length <= PROMPT_MAX_CHARS, {
      message: `message is longer than ${PROMPT_MAX_CHARS} characters`,
      path: ["message"],
    }),
  )
  .check(
    z.refine(
      (body) =>
        (body.mode !== "steer" && body.mode !== "interrupt") ||
        (body.expected_turn_id ?? "").trim() !== "",
      { message: "expected_turn_id is required", path: ["expected_turn_id"] },
    ),
  );
export type PromptBody = z.infer<typeof PromptBody>;

const PROMPT_STATUSES = ["accepted", "queued", "steering", "interrupting", "canceled"] as const;
const PROMPT_DELIVERIES = ["none", "direct", "after_turn", "interrupt_then_prompt"] as const;

/** CompozyOS `SendPromptResultPayload`. */
const PromptResult = z.object({
  status: z.string().check(z.minLength(1)),
  mode: z.optional(z.string()),
  delivery: z.string(),
  message_id: z.string(),
  idempotency_key: z.string(),
  replayed: z.boolean(),
  queue_entry_id: z.optional(z.string()),
  queue_position: z.optional(z.int()),
  queue_generation: z.optional(Int64),
  estimated_send_at: z.nullish(Timestamp),
  previous_turn_id: z.optional(z.string()),
  new_turn_id: z.optional(z.string()),
  canceled_queued_entries: z.optional(z.int()),
  goal: z.optional(z.unknown()),
});

/** The non-streaming answer of `POST …/prompt`: 200, or 202 when queued or replayed. */
export const PromptResultEnvelope = z.object({ prompt: PromptResult });
export type PromptResultEnvelope = z.infer<typeof PromptResultEnvelope>;
export const DaemonPromptResultEnvelope = z.object({
  prompt: z.extend(PromptResult, {
    status: z.enum(PROMPT_STATUSES),
    delivery: z.enum(PROMPT_DELIVERIES),
  }),
});

/**
 * A CompozyOS daemon may instead answer a direct prompt with the AI SDK v1 UI message
 * stream (`text/event-stream`); it marks that answer with this header.
 */
export const PROMPT_STREAM_HEADER = "x-vercel-ai-ui-message-stream";

/** `POST …/prompt/cancel` answer (CompozyOS `SessionPromptCancelResponse`, always 200). */
const CANCEL_OUTCOMES = ["canceled", "nothing-in-flight"] as const;
export const CancelResult = z.object({
  session_id: Id,
  outcome: z.string().check(z.minLength(1)),
  turn_id: z.optional(z.string()),
});
export type CancelResult = z.infer<typeof CancelResult>;
export const DaemonCancelResult = z.extend(CancelResult, { outcome: z.enum(CANCEL_OUTCOMES) });

/**
 * `POST …/approve` body and answer (a permission request's decision). CompozyOS's fields;
 * as its `ApproveRequest.Validate`, `request_id` or `turn_id` names the request. `decision`
 * is a CompozyOS decision (`allow-once`, `allow-always`, `reject-once`, `reject-always`) or,
 * as a Tideline extension, the exact `optionId` of one of the agent's options (ADR 0091).
 */
export const ApproveBody = z
  .strictObject({
    decision: z.string().check(z.trim()).check(z.minLength(1)).check(z.maxLength(200)),
    request_id: z.optional(z.string().check(z.maxLength(200))),
    turn_id: z.optional(z.string().check(z.maxLength(200))),
  })
  .check(
    z.refine(
      (body) => (body.request_id ?? "").trim() !== "" || (body.turn_id ?? "").trim() !== "",
      {
        message: "request_id or turn_id is required",
        path: ["request_id"],
      },
    ),
  );
export type ApproveBody = z.infer<typeof ApproveBody>;
export const ApproveResult = z.object({
  decision: z.string(),
  interaction_id: z.optional(z.string()),
  outcome: z.string(),
  request_id: z.string(),
  resolved_decision: z.optional(z.string()),
  /** Tideline: the option the agent received. */
  option_id: z.optional(z.string()),
});
export type ApproveResult = z.infer<typeof ApproveResult>;

/** `GET …/commands`: the session's command catalog (CompozyOS `SessionCommandsResponse`). */
const SessionCommand = z.object({
  id: Id,
  canonical_token: z.string(),
  display_name: z.string(),
  description: z.string(),
  lane: z.string(),
  source: z.object({
    kind: z.string(),
    id: z.optional(z.string()),
    key: z.optional(z.string()),
    scope: z.string(),
  }),
  placements: z.array(z.string()),
  input_hint: z.optional(z.string()),
  available: z.boolean(),
  unavailable_reason: z.optional(z.string()),
});
export const SessionCommands = z.object({
  commands: z.array(SessionCommand),
  revision: z.string(),
});
export type SessionCommands = z.infer<typeof SessionCommands>;

const COMPACTION_COMMANDS = ["compact", "compress"] as const;
export const CompactionCommand = z.enum(COMPACTION_COMMANDS);
export type CompactionCommand = z.infer<typeof CompactionCommand>;

/** Compact now takes an empty object; anything else is an unknown field. */
export const CompactBody = z.strictObject({});
export type CompactBody = z.infer<typeof CompactBody>;

/** `POST …/compact` 202 answer (October release). */
export const CompactAccepted = z.object({
  session_id: Id,
  prompt_id: Id,
  command: CompactionCommand,
  status: z.literal("accepted"),
});
export type CompactAccepted = z.infer<typeof CompactAccepted>;

/** The header the SPA sends with Compact now, for attribution (`web-<random>`). */
export const CLIENT_ID_HEADER = "X-Compozy-Client-ID";

/**
 * Which compaction command a session advertises, if any: a name that is exactly
 * `compact` or `compress` after trimming, `compact` preferred. `/compact`, `Compact`
 * and `compact-now` do not count. Shared by the daemon (Compact now) and the SPA
 * (whether to show the button), so the two can never disagree.
 */
export function chooseCompactionCommand(
  commands: ReadonlyArray<{ name: string }>,
): CompactionCommand | undefined {
  const names = new Set(commands.map((command) => command.name.trim()));
  return COMPACTION_COMMANDS.find((name) => names.has(name));
}

/**
 * `GET …/derive/preview` (October release): what the bounded replay of a continue or fork
 * would carry.
 */
export const DerivePreview = z.object({
  message_count: z.int().check(z.nonnegative()),
  replay_bytes: z.int().check(z.nonnegative()),
  truncated: z.boolean(),
  omitted_count: z.int().check(z.nonnegative()),
});
export type DerivePreview = z.infer<typeof DerivePreview>;
