// Query factories for a session's usage: the context reading the meter shows, and the
// per-turn figures and compaction markers behind the turns list and the chart. The
// session stream invalidates these exact keys on `session_usage_changed` and on
// reconnect, so they never go stale on their own.
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import {
  CompactionMarker,
  type ContextAfter,
  contextAfterOf,
  Turn,
  UsageEnvelope,
  type UsageTurns,
} from "../contract/usage";
import { ApiError, getJson, parseInSlices, sessionPath } from "./http";
import { type SessionRef, sessionQueries } from "./session-queries";

/** `GET …/usage/turns` with its turns left to `parseInSlices`. */
const UsageTurnsEnvelope = z.object({
  turns: z.array(z.unknown()),
  compactions: z.array(CompactionMarker),
});

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
  /**
   * Per-turn usage and compaction markers, or `null` when the daemon has no such endpoint
   * (a CompozyOS older than its compaction release answers 404): the rail then hides the
   * turns and the chart instead of showing an error or asking again.
   */
  turns: ({ workspaceId, sessionId }: SessionRef) =>
    queryOptions({
      queryKey: usageQueries.turnsKey(sessionId),
      queryFn: async ({ signal }): Promise<UsageTurnsView | null> => {
        try {
          // Every turn of the session: checked a slice at a time (a long session has
          // thousands), the envelope and the markers at once.
          const path = sessionPath(workspaceId, sessionId, "/usage/turns");
          const data = await getJson(path, UsageTurnsEnvelope, { signal });
          const turns = await parseInSlices(path, data.turns, Turn, signal);
          return withContextAfter({ turns, compactions: data.compactions });
        } catch (error) {
          if (isMissingEndpoint(error)) return null;
          throw error;
        }
      },
      staleTime: Number.POSITIVE_INFINITY,
    }),
};

/**
 * A 404 from an endpoint of a session the daemon knows (the page only asks for these once
 * the session itself loaded) means this daemon does not have the endpoint.
 */
export function isMissingEndpoint(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** A marker with its "after" figure, derived once here for the meter, chart and list. */
export type CompactionMarkerView = CompactionMarker & {
  context_after?: Omit<ContextAfter, "turn_id"> & { turn_id?: string };
};
export type UsageTurnsView = { turns: Turn[]; compactions: CompactionMarkerView[] };

/** CompozyOS sends no "after" figure: it is the first later turn's reading (`contextAfterOf`). */
export function withContextAfter(data: UsageTurns): UsageTurnsView {
  // Sorted once: `contextAfterOf` sorts its copy of the turns, which costs a linear pass on
  // sorted input but n·log n per marker on the wire's order (66 markers × 3,333 turns was
  // one long task when a long session opened).
  const sorted = { ...data, turns: [...data.turns].sort((a, b) => a.sequence - b.sequence) };
  return {
    turns: data.turns,
    compactions: data.compactions.map((marker) => {
      const after = contextAfterOf(marker, sorted);
      return after ? { ...marker, context_after: after } : marker;
    }),
  };
}
