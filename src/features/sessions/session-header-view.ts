// How the session header names the session (its state comes from `sessionPhase`).
import type { Session } from "../../contract/session";
import { sessionLabel } from "./session-sidebar-view";

/** The h1: the session's name, else a short form of its id (a raw id is noise as a title). */
export function headerTitle(session: Pick<Session, "id" | "name"> | undefined): string {
  if (!session) return "Session";
  const label = sessionLabel(session as Session);
  return label === session.id ? `Session ${session.id.slice(-6)}` : label;
}
