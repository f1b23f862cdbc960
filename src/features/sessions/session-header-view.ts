// How the session header reads the session: its title and what state it is in, in words.
// The stream's own state counts: while the daemon is unreachable the session's last known
// state is not claimed as current.
import type { StreamState } from "../../api/session-stream";
import type { Session } from "../../contract/session";
import { type SessionStatus, sessionLabel, sessionStatus } from "./session-sidebar-view";

export function headerState(
  session: Pick<Session, "state" | "activity"> | undefined,
  stream: StreamState,
): SessionStatus | undefined {
  if (stream === "reconnecting") return { text: "Reconnecting…", tone: "warn" };
  return session ? sessionStatus(session) : undefined;
}

/** The h1: the session's name, else a short form of its id (a raw id is noise as a title). */
export function headerTitle(session: Pick<Session, "id" | "name"> | undefined): string {
  if (!session) return "Session";
  const label = sessionLabel(session as Session);
  return label === session.id ? `Session ${session.id.slice(-6)}` : label;
}
