// Reading sessions: one by id, its owner, and pages of the filtered list (newest activity
// first), paged in SQL so a page costs the same at ten sessions or ten thousand (ADR 0140).
import type { DaemonSession, SessionOwner } from "../../../src/contract/session";
import type { HostContext } from "./host-context";
import type { SessionListFilter } from "./host-types";
import type { SessionView } from "./session-view";

export type SessionListPage = { sessions: DaemonSession[]; total: number };

export function createSessionList(ctx: HostContext, view: SessionView) {
  const { store } = ctx;

  function listPage(
    filter: SessionListFilter,
    page: { offset: number; limit: number },
  ): SessionListPage {
    const { records, total } = store.pageSessions(
      {
        workspaceId: filter.workspaceId,
        agentName: filter.agentName,
        state: filter.state,
        archive: filter.archive ?? "exclude",
      },
      page,
    );
    return { sessions: records.map((found) => view(found, { commands: false })), total };
  }

  return {
    getSession(sessionId: string, workspaceId?: string): DaemonSession {
      return view(ctx.requireSession(sessionId, workspaceId));
    },

    findSession(sessionId: string): DaemonSession | undefined {
      const found = store.getSession(sessionId);
      return found === undefined ? undefined : view(found);
    },

    /** The workspace a session belongs to; `undefined` when there is no such session. */
    sessionOwner(sessionId: string): SessionOwner | undefined {
      const found = store.getSession(sessionId);
      if (found === undefined) return undefined;
      return {
        session_id: found.id,
        workspace_id: found.workspace_id,
        workspace_name: store.getWorkspace(found.workspace_id)?.name ?? "",
      };
    },

    listPage,

    /** Every matching session (callers that need them all; the API pages). */
    listSessions(filter: SessionListFilter): DaemonSession[] {
      return listPage(filter, { offset: 0, limit: -1 }).sessions;
    },
  };
}
