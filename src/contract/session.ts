// Workspaces and sessions (CompozyOS `internal/api/contract` session payloads, operations
// listSessions/createSession/getSession/renameSession/archiveSession/unarchiveSession).
// Response schemas are lenient where CompozyOS is: unknown fields are ignored and fields
// CompozyOS marks optional are optional. The `Daemon…` forms add what CompozyOS always
// sends, so the reference daemon's answers are complete for any CompozyOS client.
import { z } from "zod";
import { PendingInteraction, SessionConfigOption, SessionModes } from "./agent-session";
import { Count, goBool, goSlice, Id, Int64, queryInt, Timestamp } from "./primitives";

export const Workspace = z.object({
  id: Id,
  name: z.string(),
  root_dir: z.string(),
  add_dirs: goSlice(z.string()).optional(),
  default_agent: z.string().optional(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Workspace = z.infer<typeof Workspace>;
const DaemonWorkspace = Workspace.extend({ add_dirs: z.array(z.string()) });

/**
 * `GET /api/sessions/{session_id}/owner` (CompozyOS `contract.SessionOwner`): the workspace a
 * session belongs to, for a client that has only the session's id (a deep link).
 */
export const SessionOwner = z.object({
  session_id: Id,
  workspace_id: Id,
  workspace_name: z.string(),
});
export type SessionOwner = z.infer<typeof SessionOwner>;

export const WorkspaceList = z.object({ workspaces: goSlice(Workspace) });
export type WorkspaceList = z.infer<typeof WorkspaceList>;
export const DaemonWorkspaceList = z.object({ workspaces: z.array(DaemonWorkspace) });

const SESSION_STATES = ["starting", "active", "stopping", "stopped"] as const;
export const SessionState = z.enum(SESSION_STATES);
export type SessionState = z.infer<typeof SessionState>;

/** Why a session stopped (CompozyOS `store.StopReason`). */
const STOP_REASONS = [
  "completed",
  "user_canceled",
  "max_iterations",
  "loop_detected",
  "timeout",
  "budget_exceeded",
  "error",
  "agent_crashed",
  "hook_stopped",
  "shutdown",
] as const;

export const AvailableCommand = z.object({
  name: z.string(),
  description: z.string(),
  input: z.object({ hint: z.string() }).nullish(),
});
export type AvailableCommand = z.infer<typeof AvailableCommand>;

/**
 * What a session is doing right now (CompozyOS `activity`, `null` when idle). A turn is
 * running exactly when `turn_id` is a non-empty string.
 */
const SessionActivity = z.object({
  turn_id: z.string().optional(),
  turn_source: z.string().optional(),
  turn_started_at: Timestamp.nullish(),
  last_activity_at: Timestamp.nullish(),
  last_activity_kind: z.string().optional(),
  current_tool: z.string().optional(),
  tool_call_id: z.string().optional(),
  elapsed_ms: Count.optional(),
});
const DaemonSessionActivity = SessionActivity.extend({
  elapsed_ms: Count,
  elapsed_seconds: Count,
  idle_seconds: Count,
  iteration_current: Count,
  iteration_max: Count,
});

/** The runtime block: CompozyOS's agent process status and its ACP capabilities. */
const SessionRuntime = z.looseObject({
  status: z.string(),
  selection_revision: Int64.optional(),
  acp_session_id: z.string().optional(),
  acp_caps: z
    .looseObject({
      supports_load_session: z.boolean(),
      prompt_image: z.boolean().optional(),
      prompt_audio: z.boolean().optional(),
      prompt_embedded_context: z.boolean().optional(),
    })
    .nullish(),
  failure: z.string().optional(),
});

/** Tideline: one end of a continue or fork (ADR 0136). */
export const SessionLink = z.object({
  session_id: Id,
  kind: z.enum(["continue", "fork"]),
  /** The linked session's name, when it has one; absent once it was deleted. */
  name: z.string().optional(),
  /** True when the linked session no longer exists (deleting keeps the note). */
  deleted: z.boolean().optional(),
  created_at: Timestamp,
});
export type SessionLink = z.infer<typeof SessionLink>;

/**
 * Tideline: where a session came from and what was derived from it. `continued_in` is set
 * when this session was continued: it is then read-only (`409 session_continued`).
 */
export const SessionDerivation = z.object({
  derived_from: SessionLink.optional(),
  derived: z.array(SessionLink),
  continued_in: Id.optional(),
});
export type SessionDerivation = z.infer<typeof SessionDerivation>;

/** CompozyOS `SessionHealthPayload`, sent with `include_health=true`. */
export const SessionHealth = z.object({
  session_id: Id,
  workspace_id: Id,
  agent_name: z.string(),
  state: z.enum(["idle", "prompting", "stopped", "detached"]),
  health: z.enum(["healthy", "degraded", "stale", "dead", "unknown"]),
  active_prompt: z.boolean(),
  attachable: z.boolean(),
  eligible_for_wake: z.boolean(),
  ineligibility_reason: z.string().optional(),
  last_activity_at: Timestamp.nullish(),
  updated_at: Timestamp,
});
export type SessionHealth = z.infer<typeof SessionHealth>;

export const Session = z.object({
  id: Id,
  workspace_id: Id.optional(),
  workspace_path: z.string().optional(),
  agent_name: z.string(),
  name: z.string().optional(),
  type: z.string().optional(),
  state: SessionState,
  stop_reason: z.string().optional(),
  stop_detail: z.string().optional(),
  activity: SessionActivity.nullish(),
  available_commands: goSlice(AvailableCommand),
  archived_at: Timestamp.nullish(),
  attachable: z.boolean().optional(),
  badge: z.string().optional(),
  runtime: SessionRuntime.optional(),
  transcript_epoch: Int64.optional(),
  /** Approvals waiting for a person (CompozyOS's field): the sidebar's "needs approval". */
  pending_interactions: goSlice(PendingInteraction).optional(),
  /** Tideline: the agent's modes (`session/new` `modes`, `current_mode_update`), ADR 0090. */
  modes: SessionModes.optional(),
  /** Tideline: the agent's config options (`configOptions`, `config_option_update`). */
  config_options: z.array(SessionConfigOption).optional(),
  /** Tideline: the model the agent names (`usage_update._meta`, or its model option). */
  model: z.string().optional(),
  /** Tideline: continue and fork links, both ways, detail only (ADR 0136); not CompozyOS's spawn `lineage`. */
  derivation: SessionDerivation.optional(),
  health: SessionHealth.nullish(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Session = z.infer<typeof Session>;

/** Every field CompozyOS always sends: what the reference daemon is checked against. */
export const DaemonSession = Session.extend({
  workspace_id: Id,
  activity: DaemonSessionActivity.optional(),
  available_commands: z.array(AvailableCommand),
  archived_at: Timestamp.nullable(),
  attachable: z.boolean(),
  badge: z.string(),
  pending_interactions: z.array(PendingInteraction),
  runtime: SessionRuntime.extend({ selection_revision: Int64 }),
  transcript_epoch: Int64,
  stop_reason: z.enum(STOP_REASONS).optional(),
});
export type DaemonSession = z.infer<typeof DaemonSession>;

export const SessionEnvelope = z.object({ session: Session });
export type SessionEnvelope = z.infer<typeof SessionEnvelope>;
export const DaemonSessionEnvelope = z.object({ session: DaemonSession });

/** CompozyOS `CountedCursorPagePayload`. */
const PageInfo = z.object({
  has_more: z.boolean(),
  limit: Count,
  next_cursor: z.string().optional(),
  total: Count,
});

export const SessionList = z.object({ sessions: goSlice(Session), page: PageInfo });
export type SessionList = z.infer<typeof SessionList>;
export const DaemonSessionList = z.object({ sessions: z.array(DaemonSession), page: PageInfo });

/** The most sessions one page may hold (CompozyOS: "Sessions per page (1-100)"). */
const SESSION_PAGE_MAX = 100;
const ARCHIVE_FILTERS = ["exclude", "only", "include"] as const;

const SESSION_SORTS = ["recent", "last_activity", "attention"] as const;
const SESSION_TYPES = ["user", "system", "coordinator", "spawned"] as const;

/**
 * `GET /api/sessions` query: every parameter CompozyOS's handler reads
 * (`internal/api/core/session_catalog.go`), each checked as it checks it; a parameter it
 * does not read is ignored, as gin ignores it. `workspace_id`-less worktrees, parents and
 * roots do not exist here, so those filters match nothing but the empty value.
 */
export const SessionListQuery = z.object({
  workspace: z.string().max(4096).optional(),
  include_health: goBool.optional(),
  state: SessionState.optional(),
  type: z.enum(SESSION_TYPES).optional(),
  agent: z.string().max(200).optional(),
  parent: z.string().max(200).optional(),
  root: z.string().max(200).optional(),
  worktree: z.string().max(200).optional(),
  q: z.string().max(500).optional(),
  resumable: goBool.optional(),
  attention: goBool.optional(),
  badge: z.string().max(500).optional(),
  archive: z.enum(ARCHIVE_FILTERS).optional(),
  sort: z.enum(SESSION_SORTS).optional(),
  cursor: z.string().min(1).max(200).optional(),
  limit: queryInt(1, SESSION_PAGE_MAX).optional(),
});
export type SessionListQuery = z.infer<typeof SessionListQuery>;

/** `GET …/sessions/{id}` query (CompozyOS: `include_health`; others ignored). */
export const SessionDetailQuery = z.object({ include_health: goBool.optional() });

/** `GET /api/sessions/catalog-stream` `session_catalog_changed` data (a wake signal). */
export const SessionCatalogEvent = z.object({
  kind: z.enum(["upserted", "deleted"]),
  workspace_id: z.string().min(1),
  session_id: z.string().min(1),
});
export type SessionCatalogEvent = z.infer<typeof SessionCatalogEvent>;

/**
 * `POST /api/sessions` body. `workspace` is a workspace id or root path; without it (and
 * without `workspace_path`) the daemon's only workspace is used.
 */
export const CreateSessionBody = z
  .strictObject({
    workspace: z.string().min(1).max(4096).optional(),
    workspace_path: z.string().min(1).max(4096).optional(),
    agent_name: z.string().min(1).max(200).optional(),
    name: z.string().trim().min(1).max(200).optional(),
    /** Tideline: what the agent's history tool may read; default `lineage` (ADR 0173). */
    history_scope: z.enum(["lineage", "workspace"]).optional(),
  })
  .refine((body) => body.workspace === undefined || body.workspace_path === undefined, {
    message: "give workspace or workspace_path, not both",
  });
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;

/** `PATCH /api/workspaces/{ws}/sessions/{id}` body. */
export const RenameSessionBody = z.strictObject({ name: z.string().trim().min(1).max(200) });
export type RenameSessionBody = z.infer<typeof RenameSessionBody>;

export function isTurnRunning(session: Pick<Session, "activity">): boolean {
  const turnId = session.activity?.turn_id;
  return turnId !== undefined && turnId !== "";
}

export function isArchived(session: Pick<Session, "archived_at">): boolean {
  return typeof session.archived_at === "string";
}
