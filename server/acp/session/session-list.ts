// Reading sessions: one by id, and the filtered list (newest activity first).
import type { DaemonSession } from "../../../src/contract/session";
import type { HostContext } from "./host-context";
import type { SessionListFilter } from "./host-types";
import type { SessionView } from "./session-view";

export function createSessionList(ctx: HostContext, view: SessionView) {
  const { store } = ctx;
  return {
    getSession(sessionId: string, workspaceId?: string): DaemonSession {
      return view(ctx.requireSession(sessionId, workspaceId));
    },

    findSession(sessionId: string): DaemonSession | undefined {
      const found = store.getSession(sessionId);
      return found === undefined ? undefined : view(found);
    },

    listSessions(filter: SessionListFilter): DaemonSession[] {
      const archive = filter.archive ?? "exclude";
      const records = store
        .listSessions(filter.workspaceId === undefined ? {} : { workspaceId: filter.workspaceId })
        .filter((record) => {
          if (filter.agentName !== undefined && record.agent_name !== filter.agentName) {
            return false;
          }
          const archived = record.archived_at !== undefined;
          return archive === "include" || (archive === "only" ? archived : !archived);
        });
      const sessions = records.map((found) => view(found, { commands: false }));
      return filter.state === undefined
        ? sessions
        : sessions.filter((session) => session.state === filter.state);
    },
  };
}
