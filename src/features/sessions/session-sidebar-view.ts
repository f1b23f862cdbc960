// How the sidebar reads a session: its label, state badge and what it is doing now.
import { isTurnRunning, type Session, type SessionState } from "../../contract/session";

/** Newest activity first; the daemon already sends them so, this keeps patched rows in order. */
export function byNewestActivity(sessions: readonly Session[]): Session[] {
  return [...sessions].sort((a, b) => b.updated_at.localeCompare(a.updated_at));
}

export function sessionLabel(session: Session): string {
  return session.name?.trim() || session.id;
}

export function activityText(session: Session): string | undefined {
  // CompozyOS's activity does not say what kind of turn runs, so a compaction is "working" too.
  return isTurnRunning(session) ? "working…" : undefined;
}

export type BadgeTone = "good" | "busy" | "warn" | "muted";

export const STATE_BADGE: Record<SessionState, BadgeTone> = {
  active: "good",
  starting: "busy",
  stopping: "warn",
  stopped: "muted",
};

export function sessionHref(session: Session): string {
  // CompozyOS marks workspace_id optional; every session it lists has one.
  return `/w/${encodeURIComponent(session.workspace_id ?? "")}/s/${encodeURIComponent(session.id)}`;
}
