// The sidebar's search (ADR 0231): names filter at once, and Enter asks the daemon for the
// sessions' content; each hit links to its session, opened at the match with the find bar.
import type { SnippetPiece, WorkspaceSearchHit } from "../../contract/search";
import type { Session } from "../../contract/session";
import { sessionHref, sessionLabel } from "./session-sidebar-view";

/** Sessions whose name (or id, when unnamed) holds the typed text, case-insensitively. */
export function filterByName(sessions: readonly Session[], text: string): Session[] {
  const wanted = text.trim().toLocaleLowerCase();
  if (wanted === "") return [...sessions];
  return sessions.filter((session) => sessionLabel(session).toLocaleLowerCase().includes(wanted));
}

/** The distinct workspaces of the listed sessions: each is searched for content. */
export function workspacesOf(sessions: readonly Session[]): string[] {
  return [...new Set(sessions.map((session) => session.workspace_id ?? ""))].filter(
    (id) => id !== "",
  );
}

export function hitHref(hit: WorkspaceSearchHit, workspaceId: string, q: string): string {
  const base = sessionHref({ id: hit.session_id, workspace_id: workspaceId } as Session);
  return `${base}?${new URLSearchParams({ find: q, at: hit.entry_id }).toString()}`;
}

export function hitLabel(hit: WorkspaceSearchHit): string {
  return hit.session_name?.trim() || hit.session_id;
}

export function snippetText(pieces: readonly SnippetPiece[]): string {
  return pieces.map((piece) => piece.text).join("");
}
