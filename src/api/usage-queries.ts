// Query factories for a session's usage: the context reading the meter shows, and the
// per-turn figures and compaction markers behind the turns list and the chart. The
// session stream invalidates these exact keys after transcript frames (at most once a
// second) and on reconnect (ADR 0060), so they never go stale on their own.
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import {
  CompactionMarker,
  type ContextAfter,
  Turn,
  UsageEnvelope,
  type UsageTurns,
} from "../contract/usage";
import { partitionPoint } from "../lib/partition-point";
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
  /** Cancelled because the agent exited (read from the transcript): said "interrupted". */
  interrupted?: true;
};
export type UsageTurnsView = { turns: Turn[]; compactions: CompactionMarkerView[] };

/**
 * CompozyOS sends no "after" figure: it is the first later turn's reading, before the next
 * compaction (`contextAfterOf`, the contract's definition). Derived here in one pass over
 * the turns in order, O(turns + markers · log turns): a marker's candidates are the turns
 * between it and the next marker. Per marker over all turns was 66 × 3,333 steps and one
 * long task when a long session's turns arrived.
 */
export function withContextAfter(data: UsageTurns): UsageTurnsView {
  const turns = [...data.turns].sort((a, b) => a.sequence - b.sequence);
  const sequences = [...new Set(data.compactions.map((marker) => marker.sequence))].sort(
    (a, b) => a - b,
  );
  return {
    turns: data.turns,
    compactions: data.compactions.map((marker) => {
      const after = afterOf(marker, turns, sequences);
      return after ? { ...marker, context_after: after } : marker;
    }),
  };
}

/** The first index whose item's sequence is above `sequence` (binary search). */
function firstAbove(items: readonly { sequence: number }[] | readonly number[], sequence: number) {
  return partitionPoint<{ sequence: number } | number>(
    items,
    (item) => (typeof item === "number" ? item : item.sequence) > sequence,
  );
}

function afterOf(
  marker: CompactionMarker,
  turns: readonly Turn[],
  markerSequences: readonly number[],
): ContextAfter | undefined {
  const next = markerSequences[firstAbove(markerSequences, marker.sequence)];
  for (let index = firstAbove(turns, marker.sequence); index < turns.length; index += 1) {
    const turn = turns[index] as Turn;
    if (next !== undefined && turn.sequence >= next) return undefined;
    const used = turn.usage?.context_used;
    if (turn.turn_id === marker.turn_id || used === undefined) continue;
    return {
      used,
      ...(turn.usage?.context_size === undefined ? {} : { size: turn.usage.context_size }),
      sequence: turn.sequence,
      turn_id: turn.turn_id,
    };
  }
  return undefined;
}
