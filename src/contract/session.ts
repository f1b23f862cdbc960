import { z } from "zod";
import { Count, Id, queryInt, Timestamp } from "./primitives";

export const Workspace = z.object({
  id: Id,
  name: z.string(),
  root_dir: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Workspace = z.infer<typeof Workspace>;

export const WorkspaceList = z.object({ workspaces: z.array(Workspace) });
export type WorkspaceList = z.infer<typeof WorkspaceList>;

export const SESSION_STATES = ["starting", "active", "stopping", "stopped"] as const;
export const SessionState = z.enum(SESSION_STATES);
export type SessionState = z.infer<typeof SessionState>;

export const AvailableCommand = z.object({
  name: z.string(),
  description: z.string(),
  input: z.object({ hint: z.string() }).nullable().optional(),
});
export type AvailableCommand = z.infer<typeof AvailableCommand>;

/** What a session is doing right now. A turn is running exactly when `turn_id` is present. */
export const SessionActivity = z.object({
  turn_id: Id.optional(),
  turn_started_at: Timestamp.optional(),
  kind: z.enum(["prompt", "compact"]).optional(),
});
export type SessionActivity = z.infer<typeof SessionActivity>;

export const Session = z.object({
  id: Id,
  workspace_id: Id,
  agent_name: z.string(),
  name: z.string().optional(),
  state: SessionState,
  activity: SessionActivity.optional(),
  available_commands: z.array(AvailableCommand),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Session = z.infer<typeof Session>;

export const SessionEnvelope = z.object({ session: Session });
export type SessionEnvelope = z.infer<typeof SessionEnvelope>;

export const PageInfo = z.object({
  has_more: z.boolean(),
  limit: Count,
  next_cursor: z.string().optional(),
  total: Count,
});
export type PageInfo = z.infer<typeof PageInfo>;

export const SessionList = z.object({ sessions: z.array(Session), page: PageInfo });
export type SessionList = z.infer<typeof SessionList>;

/** `GET /api/sessions` query. */
export const SessionListQuery = z.strictObject({
  workspace: Id.optional(),
  state: SessionState.optional(),
  limit: queryInt(1, 1000).optional(),
  cursor: z.string().min(1).optional(),
});
export type SessionListQuery = z.infer<typeof SessionListQuery>;

/** `POST /api/workspaces/{ws}/sessions` body. */
export const CreateSessionBody = z.strictObject({
  agent: z.string().min(1).max(200).optional(),
  name: z.string().min(1).max(200).optional(),
});
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;

export function isTurnRunning(session: Pick<Session, "activity">): boolean {
  return session.activity?.turn_id !== undefined;
}
