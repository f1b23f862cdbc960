// Transcript search (a Tideline extension, ADR 0230): one session's matches for the find
// bar and the workspace's hits for the sidebar. `null` against a daemon without the
// endpoints (CompozyOS answers 404): the find bar then searches what is loaded, and says so.
import { queryOptions } from "@tanstack/react-query";
import {
  SESSION_SEARCH_MAX_LIMIT,
  SessionSearchResult,
  WorkspaceSearchResult,
} from "../contract/search";
import { getJson, sessionPath } from "./http";
import type { SessionRef } from "./session-queries";
import { isMissingEndpoint } from "./usage-queries";

async function orMissing<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (isMissingEndpoint(error)) return null;
    throw error;
  }
}

export const searchQueries = {
  all: () => ["search"] as const,
  session: ({ workspaceId, sessionId }: SessionRef, q: string) =>
    queryOptions({
      queryKey: [...searchQueries.all(), "session", sessionId, q] as const,
      queryFn: ({ signal }) =>
        orMissing(() =>
          getJson(sessionPath(workspaceId, sessionId, "/search"), SessionSearchResult, {
            signal,
            // Every match the daemon gives, so the bar can step through them all.
            query: { q, limit: SESSION_SEARCH_MAX_LIMIT },
          }),
        ),
      // New entries may match: asked again when the bar reopens, not on every keystroke.
      staleTime: 10_000,
    }),
  workspace: (workspaceId: string, q: string) =>
    queryOptions({
      queryKey: [...searchQueries.all(), "workspace", workspaceId, q] as const,
      queryFn: ({ signal }) =>
        orMissing(() =>
          getJson(
            `/api/workspaces/${encodeURIComponent(workspaceId)}/search`,
            WorkspaceSearchResult,
            { signal, query: { q } },
          ),
        ),
      staleTime: 10_000,
    }),
};
