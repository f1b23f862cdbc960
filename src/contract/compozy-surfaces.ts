// The endpoints CompozyOS's own web calls around a session view that are not about the
// session itself: runtime status, onboarding, attention counts, goal, clarifications,
// presence and the prompt queue (shapes from CompozyOS `internal/api/contract/` and
// `web/src/generated/compozy-openapi.d.ts`). The reference daemon answers each truthfully:
// what it has no such thing for is an empty list, a null or a zero (ADR 0191).

import { IDEMPOTENCY_KEY_MAX, PROMPT_MAX_CHARS } from "./commands";
import { Id, Timestamp } from "./primitives";
import { z } from "./zod";

/** CompozyOS `contract.StatusSchemaVersion`, the status payload this daemon follows. */
export const STATUS_SCHEMA_VERSION = "2026-07-16";
/** CompozyOS stamps every answer of its local listener with the listener's tier. */
export const GATEWAY_TIER_HEADER = "X-Compozy-Gateway-Tier";

const Count = z.int().check(z.nonnegative());

/** `GET /api/onboarding` (CompozyOS `OnboardingStatusResponse`). */
export const OnboardingEnvelope = z.object({
  onboarding: z.object({ completed: z.boolean(), completed_at: z.optional(Timestamp) }),
});
export type OnboardingEnvelope = z.infer<typeof OnboardingEnvelope>;

/** `GET /api/sessions/attention-summary` (CompozyOS `SessionAttentionSummaryResponse`). */
export const AttentionSummary = z.object({
  needs_you: Count,
  finished: Count,
  by_workspace: z.array(z.object({ workspace_id: Id, needs_you: Count, finished: Count })),
});
export type AttentionSummary = z.infer<typeof AttentionSummary>;

/** `GET …/goal`: the reference daemon runs no goals, so there is never one. */
export const GoalEnvelope = z.object({ goal: z.null() });

/** `GET …/clarifications` (CompozyOS `SessionClarificationsResponse`). */
export const ClarificationList = z.object({
  clarifications: z.array(
    z.object({
      request_id: Id,
      session_id: Id,
      agent_name: z.string(),
      question: z.string(),
      choices: z.optional(z.array(z.string())),
      asked_at: Timestamp,
      deadline: Timestamp,
    }),
  ),
});

/** `POST …/presence` body (CompozyOS `SessionPresenceRequest`, bound leniently). */
export const PresenceBody = z.object({
  visible: z.boolean(),
  lease_id: z.optional(z.string().check(z.maxLength(200))),
});
export const PresenceLease = z.object({ lease_id: Id });

/** One queued input (CompozyOS `SessionInputPayload`). */
export const QueuedInput = z.object({
  id: Id,
  session_id: Id,
  text: z.string(),
  mode: z.string(),
  delivery: z.string(),
  status: z.string(),
  enqueued_at: Timestamp,
  queue_generation: z.int(),
  message_id: z.optional(z.string()),
  idempotency_key: z.optional(z.string()),
  target_turn_id: z.optional(z.string()),
});
export type QueuedInput = z.infer<typeof QueuedInput>;
/** `GET …/prompt/queue` (CompozyOS `SessionInputsResponse`), in the order they go out. */
export const QueuedInputList = z.object({ inputs: z.array(QueuedInput) });
export type QueuedInputList = z.infer<typeof QueuedInputList>;
/** `PUT …/prompt/queue/{id}` answer (CompozyOS `SessionInputResponse`). */
export const QueuedInputEnvelope = z.object({ input: QueuedInput });

const Words = z
  .string()
  .check(
    z.maxLength(PROMPT_MAX_CHARS, {
      message: `text is longer than ${PROMPT_MAX_CHARS} characters`,
    }),
  )
  .check(z.refine((text) => text.trim() !== "", { message: "text is required" }));
const Identity = {
  text: Words,
  message_id: Id.check(z.maxLength(200)),
  idempotency_key: Id.check(z.maxLength(IDEMPOTENCY_KEY_MAX)),
};
const TurnFence = z
  .string()
  .check(z.maxLength(200))
  .check(z.refine((id) => id.trim() !== "", { message: "expected_turn_id is required" }));

/** `PUT …/prompt/queue/{id}`: a queued message's new words (CompozyOS `ReplaceSessionInputRequest`). */
export const ReplaceQueuedInputBody = z.object(Identity);
export type ReplaceQueuedInputBody = z.infer<typeof ReplaceQueuedInputBody>;
/**
 * `POST …/prompt/queue/{id}/steer` (CompozyOS `PromoteSessionInputRequest`) and `POST …/steer`
 * (`SteerPromptRequest`): the same fields, the running turn named so a stale click is refused.
 */
export const SteerBody = z.object({ ...Identity, expected_turn_id: TurnFence });
export type SteerBody = z.infer<typeof SteerBody>;

const ZeroBridges = z.object({
  auth_failures_total: Count,
  delivery_backlog: Count,
  delivery_dropped_total: Count,
  delivery_failures_total: Count,
  route_count: Count,
  status_counts: z.object({
    auth_required: Count,
    degraded: Count,
    disabled: Count,
    error: Count,
    ready: Count,
    starting: Count,
  }),
  total_instances: Count,
});

/**
 * `GET /api/status` (CompozyOS `StatusPayload`): every object the payload requires, with
 * the figures the reference daemon really has; subsystems it lacks report disabled.
 */
export const DaemonStatus = z.object({
  schema_version: z.string(),
  generated_at: Timestamp,
  automation: z.object({
    enabled: z.boolean(),
    jobs: z.object({ enabled: Count, total: Count }),
    scheduler_running: z.boolean(),
    triggers: z.object({ enabled: Count, total: Count }),
  }),
  bridges: ZeroBridges,
  config: z.object({
    apply_state: z.string(),
    config_file: z.optional(z.string()),
    restart_required: z.boolean(),
    status: z.string(),
    validated: z.boolean(),
  }),
  daemon: z.object({
    active_sessions: Count,
    gateway: z.null(),
    http_host: z.string(),
    http_port: z.int().check(z.nonnegative()),
    min_app_version: z.string(),
    pid: z.int().check(z.positive()),
    schema_streams: z.array(z.unknown()),
    socket: z.string(),
    started_at: Timestamp,
    status: z.string(),
    total_sessions: Count,
    user_home_dir: z.string(),
    version: z.string(),
  }),
  health: z.object({
    active_agents: Count,
    active_sessions: Count,
    bridges: ZeroBridges,
    failures: z.object({ status: z.string(), total: Count }),
    global_db_size_bytes: Count,
    persistence: z.object({
      global_db_size_bytes: Count,
      session_db_size_bytes: Count,
      status: z.string(),
    }),
    retention: z.object({
      deleted_event_summaries: Count,
      deleted_permission_log_rows: Count,
      deleted_token_stats: Count,
      deleted_token_usage_daily: Count,
      enabled: z.boolean(),
      last_sweep_status: z.string(),
      retention_days: Count,
      sweep_interval_seconds: Count,
    }),
    session_db_size_bytes: Count,
    status: z.string(),
    uptime_seconds: Count,
    version: z.string(),
  }),
  log_tail: z.object({ available: z.boolean(), status: z.string() }),
  memory: z.object({
    configured: z.boolean(),
    dream_enabled: z.boolean(),
    enabled: z.boolean(),
    global_files: Count,
    indexed_files: Count,
    last_consolidation: z.null(),
    last_operation_at: z.null(),
    last_reindex: z.null(),
    operation_count: Count,
    orphaned_files: Count,
    status: z.string(),
    workspace_count: Count,
    workspace_files: Count,
  }),
  sessions: z.object({
    active: Count,
    total: Count,
    by_status: z.record(z.string(), Count),
  }),
  skills: z.object({
    disabled_count: Count,
    discovered_count: Count,
    runtime_available: z.boolean(),
  }),
  subprocess_health: z.object({
    healthy: Count,
    monitored: Count,
    status: z.string(),
    unhealthy: Count,
  }),
  tasks: z.object({
    active_orphan_runs: Count,
    channel_mismatch_since_start: Count,
    duplicate_ingress_since_start: Count,
    forced_stops_since_start: Count,
    oldest_queue_age_ms: Count,
    queue_depth_total: Count,
    recovery_since_start: z.object({ failed: Count, marked_running: Count, requeued: Count }),
    status: z.string(),
  }),
});
export type DaemonStatus = z.infer<typeof DaemonStatus>;
