// Query factories for a session's usage: the context reading the meter shows, and the
// per-turn figures and compaction markers behind the turns list and the chart. The
// session stream invalidates these exact keys on `session_usage_changed` and on
// reconnect, so they never go stale on their own.
import { queryOptions } from "@tanstack/react-query";
import { UsageEnvelope, UsageTurns } from "../contract/usage";
import { getJson, sessionPath } from "./http";
import { type SessionRef, sessionQueries } from "./session-queries";

export const usageQueries = {
  usageKey: (sessionId: string) => [...sessionQueries.all(), "usage", sessionId] as const,
  turnsKey: (sessionId: string) => [...sessionQueries.all(), "usage-turns", sessionId] as const,
  usage: ({ workspaceId, sessionId }: SessionRef) =>
    queryOptions({
      queryKey: usageQueries.usageKey(sessionId),
      queryFn: ({ signal }) =>
        getJson(sessionPath(workspaceId, sessionId, "/usage"), UsageEnvelope, { signal }),
      select: (data) => data.usage,
      staleTime: Number.POSITIVE_INFINITY,
    }),
  turns: ({ workspaceId, sessionId }: SessionRef) =>
    queryOptions({
      queryKey: usageQueries.turnsKey(sessionId),
      queryFn: ({ signal }) =>
        getJson(sessionPath(workspaceId, sessionId, "/usage/turns"), UsageTurns, { signal }),
      staleTime: Number.POSITIVE_INFINITY,
    }),
};
