// Query factories for workspaces and sessions: keys and options live together.
import { queryOptions } from "@tanstack/react-query";
import { SessionEnvelope, SessionList, WorkspaceList } from "../contract/session";
import { getJson, sessionPath } from "./http";

export type SessionRef = { workspaceId: string; sessionId: string };

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
  list: () =>
    queryOptions({
      queryKey: [...sessionQueries.all(), "list"] as const,
      queryFn: ({ signal }) =>
        getJson("/api/sessions", SessionList, { signal, query: { limit: 200 } }),
      // The open session's stream patches its own row; the list refreshes for the rest.
      refetchInterval: 5_000,
    }),
  detail: ({ workspaceId, sessionId }: SessionRef) =>
    queryOptions({
      queryKey: [...sessionQueries.all(), "detail", sessionId] as const,
      queryFn: ({ signal }) =>
        getJson(sessionPath(workspaceId, sessionId), SessionEnvelope, { signal }),
      select: (data) => data.session,
      staleTime: Number.POSITIVE_INFINITY,
    }),
};
