// How the sidebar reads a session: its label, state badge and what it is doing now.
import { isTurnRunning, type Session, type SessionState } from "../../contract/session";

/** Newest activity first; the daemon already sends them so, this keeps patched rows in order. */
export function byNewestActivity(sessions: readonly Session[]): Session[] {
  return [...sessions].sort((a, b) => b.updated_at.localeCompare(a.updated_at));
}

export function sessionLabel(session: Session): string {
  return session.name?.trim() || session.id;
}

export type BadgeTone = "good" | "busy" | "warn" | "muted";

const STATE_BADGE: Record<SessionState, BadgeTone> = {
  active: "good",
  starting: "busy",
  stopping: "warn",
  stopped: "muted",
};

export type SessionStatus = { text: string; tone: BadgeTone };

/**
 * A session's state in one word, the same in the sidebar and the header: an active session
 * is "working…" while a turn runs (CompozyOS's activity does not say what kind, so a
 * compaction is working too) and "ready" otherwise; any other state reads as itself.
 */
export function sessionStatus(session: Pick<Session, "state" | "activity">): SessionStatus {
  if (session.state === "active") {
    return isTurnRunning(session)
      ? { text: "working…", tone: "busy" }
      : { text: "ready", tone: "good" };
  }
  return { text: session.state, tone: STATE_BADGE[session.state] };
}

export function sessionHref(session: Session): string {
  // CompozyOS marks workspace_id optional; every session it lists has one.
  return `/w/${encodeURIComponent(session.workspace_id ?? "")}/s/${encodeURIComponent(session.id)}`;
}
