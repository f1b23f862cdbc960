// Workspaces and sessions (CompozyOS `internal/api/contract` session payloads, operations
// listSessions/createSession/getSession/renameSession/archiveSession/unarchiveSession).
// Response schemas are lenient where CompozyOS is: unknown fields are ignored and fields
// CompozyOS marks optional are optional. The `Daemon…` forms add what CompozyOS always
// sends, so the reference daemon's answers are complete for any CompozyOS client.

import { PendingInteraction, SessionConfigOption, SessionModes } from "./agent-session";
import { Count, goBool, goSlice, Id, Int64, queryInt, Timestamp } from "./primitives";
import { z } from "./zod";

export const Workspace = z.object({
  id: Id,
  name: z.string(),
  root_dir: z.string(),
  add_dirs: z.optional(goSlice(z.string())),
  default_agent: z.optional(z.string()),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Workspace = z.infer<typeof Workspace>;
const DaemonWorkspace = z.extend(Workspace, { add_dirs: z.array(z.string()) });

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
  input: z.nullish(z.object({ hint: z.string() })),
});
export type AvailableCommand = z.infer<typeof AvailableCommand>;

/**
 * What a session is doing right now (CompozyOS `activity`, `null` when idle). A turn is
 * running exactly when `turn_id` is a non-empty string.
 */
const SessionActivity = z.object({
  turn_id: z.optional(z.string()),
  turn_source: z.optional(z.string()),
  turn_started_at: z.nullish(Timestamp),
  last_activity_at: z.nullish(Timestamp),
  last_activity_kind: z.optional(z.string()),
  current_tool: z.optional(z.string()),
  tool_call_id: z.optional(z.string()),
  elapsed_ms: z.optional(Count),
});
const DaemonSessionActivity = z.extend(SessionActivity, {
  elapsed_ms: Count,
  elapsed_seconds: Count,
  idle_seconds: Count,
  iteration_current: Count,
  iteration_max: Count,
});

/** The runtime block: CompozyOS's agent process status and its ACP capabilities. */
const SessionRuntime = z.looseObject({
  status: z.string(),
  selection_revision: z.optional(Int64),
  acp_session_id: z.optional(z.string()),
  acp_caps: z.nullish(
    z.looseObject({
      supports_load_session: z.boolean(),
      prompt_image: z.optional(z.boolean()),
      prompt_audio: z.optional(z.boolean()),
      prompt_embedded_context: z.optional(z.boolean()),
    }),
  ),
  failure: z.optional(z.string()),
});

/** Tideline: one end of a continue or fork (ADR 0136). */
export const SessionLink = z.object({
  session_id: Id,
  kind: z.enum(["continue", "fork"]),
  /** The linked session's name, when it has one; absent once it was deleted. */
  name: z.optional(z.string()),
  /** True when the linked session no longer exists (deleting keeps the note). */
  deleted: z.optional(z.boolean()),
  created_at: Timestamp,
});
export type SessionLink = z.infer<typeof SessionLink>;

/**
 * Tideline: where a session came from and what was derived from it. `continued_in` is set
 * when this session was continued: it is then read-only (`409 session_continued`).
 */
export const SessionDerivation = z.object({
  derived_from: z.optional(SessionLink),
  derived: z.array(SessionLink),
  continued_in: z.optional(Id),
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
  ineligibility_reason: z.optional(z.string()),
  last_activity_at: z.nullish(Timestamp),
  updated_at: Timestamp,
});
export type SessionHealth = z.infer<typeof SessionHealth>;

export const Session = z.object({
  id: Id,
  workspace_id: z.optional(Id),
  workspace_path: z.optional(z.string()),
  agent_name: z.string(),
  name: z.optional(z.string()),
  type: z.optional(z.string()),
  state: SessionState,
  stop_reason: z.optional(z.string()),
  stop_detail: z.optional(z.string()),
  activity: z.nullish(SessionActivity),
  available_commands: goSlice(AvailableCommand),
  archived_at: z.nullish(Timestamp),
  attachable: z.optional(z.boolean()),
  badge: z.optional(z.string()),
  runtime: z.optional(SessionRuntime),
  transcript_epoch: z.optional(Int64),
  /** Approvals waiting for a person (CompozyOS's field): the sidebar's "needs approval". */
  pending_interactions: z.optional(goSlice(PendingInteraction)),
  /** Tideline: the agent's modes (`session/new` `modes`, `current_mode_update`), ADR 0090. */
  modes: z.optional(SessionModes),
  /** Tideline: the agent's config options (`configOptions`, `config_option_update`). */
  config_options: z.optional(z.array(SessionConfigOption)),
  /** Tideline: the model the agent names (`usage_update._meta`, or its model option). */
  model: z.optional(z.string()),
  /** Tideline: continue and fork links, both ways, detail only (ADR 0136); not CompozyOS's spawn `lineage`. */
  derivation: z.optional(SessionDerivation),
  health: z.nullish(SessionHealth),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Session = z.infer<typeof Session>;

/** Every field CompozyOS always sends: what the reference daemon is checked against. */
export const DaemonSession = z.extend(Session, {
  workspace_id: Id,
  activity: z.optional(DaemonSessionActivity),
  available_commands: z.array(AvailableCommand),
  archived_at: z.nullable(Timestamp),
  attachable: z.boolean(),
  badge: z.string(),
  pending_interactions: z.array(PendingInteraction),
  runtime: z.extend(SessionRuntime, { selection_revision: Int64 }),
  transcript_epoch: Int64,
  stop_reason: z.optional(z.enum(STOP_REASONS)),
});
export type DaemonSession = z.infer<typeof DaemonSession>;

export const SessionEnvelope = z.object({ session: Session });
export type SessionEnvelope = z.infer<typeof SessionEnvelope>;
export const DaemonSessionEnvelope = z.object({ session: DaemonSession });

/** CompozyOS `CountedCursorPagePayload`. */
const PageInfo = z.object({
  has_more: z.boolean(),
  limit: Count,
  next_cursor: z.optional(z.string()),
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
  workspace: z.optional(z.string().check(z.maxLength(4096))),
  include_health: z.optional(goBool),
  state: z.optional(SessionState),
  type: z.optional(z.enum(SESSION_TYPES)),
  agent: z.optional(z.string().check(z.maxLength(200))),
  parent: z.optional(z.string().check(z.maxLength(200))),
  root: z.optional(z.string().check(z.maxLength(200))),
  worktree: z.optional(z.string().check(z.maxLength(200))),
  q: z.optional(z.string().check(z.maxLength(500))),
  resumable: z.optional(goBool),
  attention: z.optional(goBool),
  badge: z.optional(z.string().check(z.maxLength(500))),
  archive: z.optional(z.enum(ARCHIVE_FILTERS)),
  sort: z.optional(z.enum(SESSION_SORTS)),
  cursor: z.optional(z.string().check(z.minLength(1)).check(z.maxLength(200))),
  limit: z.optional(queryInt(1, SESSION_PAGE_MAX)),
});
export type SessionListQuery = z.infer<typeof SessionListQuery>;

/** `GET …/sessions/{id}` query (CompozyOS: `include_health`; others ignored). */
export const SessionDetailQuery = z.object({ include_health: z.optional(goBool) });

/** `GET /api/sessions/catalog-stream` `session_catalog_changed` data (a wake signal). */
export const SessionCatalogEvent = z.object({
  kind: z.enum(["upserted", "deleted"]),
  workspace_id: z.string().check(z.minLength(1)),
  session_id: z.string().check(z.minLength(1)),
});
export type SessionCatalogEvent = z.infer<typeof SessionCatalogEvent>;

/**
 * `POST /api/sessions` body. `workspace` is a workspace id or root path; without it (and
 * without `workspace_path`) the daemon's only workspace is used.
 */
export const CreateSessionBody = z
  .strictObject({
    workspace: z.optional(z.string().check(z.minLength(1)).check(z.maxLength(4096))),
    workspace_path: z.optional(z.string().check(z.minLength(1)).check(z.maxLength(4096))),
    agent_name: z.optional(z.string().check(z.minLength(1)).check(z.maxLength(200))),
    name: z.optional(z.string().check(z.trim()).check(z.minLength(1)).check(z.maxLength(200))),
    /** Tideline: what the agent's history tool may read; default `lineage` (ADR 0173). */
    history_scope: z.optional(z.enum(["lineage", "workspace"])),
  })
  .check(
    z.refine((body) => body.workspace === undefined || body.workspace_path === undefined, {
      message: "give workspace or workspace_path, not both",
    }),
  );
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;

/** `PATCH /api/workspaces/{ws}/sessions/{id}` body. */
export const RenameSessionBody = z.strictObject({
  name: z.string().check(z.trim()).check(z.minLength(1)).check(z.maxLength(200)),
});
export type RenameSessionBody = z.infer<typeof RenameSessionBody>;

export function isTurnRunning(session: Pick<Session, "activity">): boolean {
  const turnId = session.activity?.turn_id;
  return turnId !== undefined && turnId !== "";
}

export function isArchived(session: Pick<Session, "archived_at">): boolean {
  return typeof session.archived_at === "string";
}
