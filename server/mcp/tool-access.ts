// What a session-tools caller may reach: sessions of its own workspace only, and for the
// history tool its own session and those it was continued or forked from, unless its
// history scope was widened to the workspace (ADR 0173).
import type { SessionSettingsStore, SessionStore } from "../domain/session-recorder-api";
import type { Caller } from "./tool-callers";

export type ToolAccessDeps = {
  store: SessionStore;
  settings?: Pick<SessionSettingsStore, "derivationOf" | "historyScopeOf"> | undefined;
};

/** The session, if the caller may reach it: same workspace only. */
export function reachable(store: SessionStore, caller: Caller, sessionId: string) {
  const found = store.getSession(sessionId);
  return found !== undefined && found.workspace_id === caller.workspaceId ? found : undefined;
}

/**
 * Whether the caller's agent may read `sessionId`'s history. A session made with
 * `session_tools: false` is not a reader's business just because it shares a workspace.
 */
export function historyReadable(deps: ToolAccessDeps, caller: Caller, sessionId: string) {
  if (reachable(deps.store, caller, sessionId) === undefined) return false;
  if (sessionId === caller.sessionId) return true;
  if (deps.settings === undefined) return false;
  if (deps.settings.historyScopeOf(caller.sessionId) === "workspace") return true;
  const seen = new Set<string>([caller.sessionId]);
  let current = deps.settings.derivationOf(caller.sessionId);
  while (current !== undefined && !seen.has(current.sourceSessionId)) {
    if (current.sourceSessionId === sessionId) return true;
    seen.add(current.sourceSessionId);
    current = deps.settings.derivationOf(current.sourceSessionId);
  }
  return false;
}
