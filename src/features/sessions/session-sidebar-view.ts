// How the sidebar reads a session: its label, state badge and what it is doing now.
import type { Session } from "../../contract/session";
import {
  type LiveSignals,
  NO_SIGNALS,
  PHASE_STATUS,
  type PhaseStatus,
  sessionPhase,
} from "../../lib/session-phase";

/**
 * Newest created first, whatever their activity (ADR 0130): a list that reorders by
 * activity moved the open session under the pointer while its agent worked. Activity shows
 * in each row's badge instead. Ties (same second) fall back to the id, so the order is total.
 */
export function byNewestCreated(sessions: readonly Session[]): Session[] {
  return [...sessions].sort(
    (a, b) =>
      Date.parse(b.created_at) - Date.parse(a.created_at) ||
      (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
}

export function sessionLabel(session: Session): string {
  return session.name?.trim() || session.id;
}

export type SessionStatus = PhaseStatus;

/**
 * A session's state in one or two words, the same in the sidebar and the header (and the
 * same phase Compact now and Stop session read): see `sessionPhase`.
 */
export function sessionStatus(
  session: Pick<Session, "state" | "activity">,
  live: LiveSignals = NO_SIGNALS,
): SessionStatus {
  return PHASE_STATUS[sessionPhase(session, live)];
}

export function sessionHref(session: Session): string {
  // CompozyOS marks workspace_id optional; every session it lists has one.
  return `/w/${encodeURIComponent(session.workspace_id ?? "")}/s/${encodeURIComponent(session.id)}`;
}
