// Query factories for a session's usage: the context reading the meter shows, and the
// per-turn figures and compaction markers behind the turns list and the chart. The
// session stream invalidates these exact keys after transcript frames (at most once a
// second) and on reconnect (ADR 0060), so they never go stale on their own.
import { queryOptions } from "@tanstack/react-query";
import {
  afterFromTurn,
  CompactionMarker,
  type ContextAfter,
  contextAfterOf,
  isBefore,
  markerReportKey,
  type ReportKey,
  Turn,
  turnReportKey,
  UsageEnvelope,
  type UsageTurns,
} from "../contract/usage";
import { z } from "../contract/zod";
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
export type CompactionMarkerView = Omit<CompactionMarker, "context_after"> & {
  context_after?: ContextAfter;
  /** Cancelled because the agent exited (read from the transcript): said "interrupted". */
  interrupted?: true;
};
export type UsageTurnsView = { turns: Turn[]; compactions: CompactionMarkerView[] };

/**
 * Every marker with its "after" figure (`contextAfterOf`, the contract's definition, ADR
 * 0121). The reference daemon sends it; for a daemon that does not, it is derived here in
 * one pass: the turns' readings sorted by report time once, then a binary search per
 * marker, O((turns + markers) · log turns). Per marker over all turns was 66 × 3,333 steps
 * and one long task when a long session's turns arrived.
 */
export function withContextAfter(data: UsageTurns): UsageTurnsView {
  const needsDerivation = data.compactions.some((marker) => marker.context_after === undefined);
  const readings = needsDerivation ? readingsInReportOrder(data.turns) : [];
  const ends = needsDerivation
    ? data.compactions.map(markerReportKey).sort((a, b) => (isBefore(a, b) ? -1 : 1))
    : [];
  return {
    turns: data.turns,
    compactions: data.compactions.map((marker) => {
      const { context_after: sent, ...rest } = marker;
      const after =
        sent === undefined ? derivedAfter(marker, readings, ends) : contextAfterOf(marker, data);
      return after ? { ...rest, context_after: after } : rest;
    }),
  };
}

type Reading = { key: ReportKey; turn: Turn };

function readingsInReportOrder(turns: readonly Turn[]): Reading[] {
  const readings: Reading[] = [];
  for (const turn of turns) {
    const key = turnReportKey(turn);
    if (key !== undefined) readings.push({ key, turn });
  }
  return readings.sort((a, b) => (isBefore(a.key, b.key) ? -1 : 1));
}

/** The first index whose key is after `bound` in report order. */
function firstAfter<T>(items: readonly T[], bound: ReportKey, key: (item: T) => ReportKey) {
  return partitionPoint(items, (item) => isBefore(bound, key(item)));
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
const itself = (key: ReportKey) => key;

/** `contextAfterOf`'s derivation with the readings and marker ends sorted once. */
function derivedAfter(
  marker: CompactionMarker,
  readings: readonly Reading[],
  ends: readonly ReportKey[],
): ContextAfter | undefined {
  if (!TERMINAL.has(marker.status)) return undefined;
  const ended = markerReportKey(marker);
  const next = ends[firstAfter(ends, ended, itself)];
  const first = readings[firstAfter(readings, ended, (reading) => reading.key)];
  if (first === undefined || (next !== undefined && !isBefore(first.key, next))) return undefined;
  return afterFromTurn(first.turn);
}
