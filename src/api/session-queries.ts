// Query factories for workspaces and sessions: keys and options live together.
import { type InfiniteData, infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import {
  isTurnRunning,
  type Session,
  SessionEnvelope,
  SessionList,
  WorkspaceList,
} from "../contract/session";
import { getJson, sessionPath } from "./http";

export type SessionRef = { workspaceId: string; sessionId: string };

/** The most CompozyOS's `GET /api/sessions` returns at once; more pages follow the cursor. */
const SESSION_PAGE_SIZE = 100;

const SETTLING_POLL_MS = 2_000;
/**
 * A stopped session's stream is closed (the daemon ends it), so nothing would tell this tab
 * that another tab or the CLI resumed the session: it is re-read this often, and the
 * stream reopens when it runs again (`useSessionStream`).
 */
export const STOPPED_POLL_MS = 3_000;

function isSettling(session: Session | undefined): boolean {
  if (!session) return false;
  return isTurnRunning(session) || session.state === "starting" || session.state === "stopping";
}

export type SessionPages = InfiniteData<SessionList, unknown>;

/** Every loaded session, in the daemon's order, each once (a row may move between pages). */
export function loadedSessions(data: SessionPages | undefined): Session[] {
  const seen = new Set<string>();
  const sessions: Session[] = [];
  for (const page of data?.pages ?? []) {
    for (const session of page.sessions) {
      if (seen.has(session.id)) continue;
      seen.add(session.id);
      sessions.push(session);
    }
  }
  return sessions;
}

export const workspaceQueries = {
  all: () => ["workspaces"] as const,
  list: () =>
    queryOptions({
      queryKey: workspaceQueries.all(),
      queryFn: ({ signal }) => getJson("/api/workspaces", WorkspaceList, { signal }),
      staleTime: 60_000,
    }),
};

export const sessionQueries = {
  all: () => ["sessions"] as const,
  /** Pages of sessions, newest first, followed by `next_cursor` (CompozyOS allows 1–100 a page). */
  /**
   * Pages of sessions, without the archived ones unless `archive` is "include" (the
   * sidebar's "Show archived"). Both share the `list` key prefix, so one invalidation
   * re-reads either.
   */
  list: (archive: "exclude" | "include" = "exclude") =>
    infiniteQueryOptions({
      queryKey:
        archive === "exclude"
          ? ([...sessionQueries.all(), "list"] as const)
          : ([...sessionQueries.all(), "list", archive] as const),
      queryFn: ({ signal, pageParam }) =>
        getJson("/api/sessions", SessionList, {
          signal,
          query: {
            limit: SESSION_PAGE_SIZE,
            cursor: pageParam,
            ...(archive === "exclude" ? {} : { archive }),
          },
        }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) =>
        last.page.has_more && last.page.next_cursor ? last.page.next_cursor : undefined,
      // Re-read when the catalog stream wakes it (ADR 0141); the sidebar polls only while
      // that stream is not live. The open session's stream patches its own row.
      staleTime: Number.POSITIVE_INFINITY,
    }),
  detail: ({ workspaceId, sessionId }: SessionRef) =>
    queryOptions({
      queryKey: [...sessionQueries.all(), "detail", sessionId] as const,
      queryFn: ({ signal }) =>
        getJson(sessionPath(workspaceId, sessionId), SessionEnvelope, { signal }),
      select: (data) => data.session,
      staleTime: Number.POSITIVE_INFINITY,
      // The stream re-reads it after transcript frames; while something is under way it is
      // also polled, so a turn's end is seen even if no frame follows it; while stopped it
      // is polled more slowly, so a resume from elsewhere is seen.
      refetchInterval: (query) => {
        const current = query.state.data?.session;
        if (isSettling(current)) return SETTLING_POLL_MS;
        return current?.state === "stopped" ? STOPPED_POLL_MS : false;
      },
    }),
};
