// The compaction audit (a Tideline extension): what a compaction's summary kept of the
// turns it replaced. Asked of the daemon; a daemon without the route (CompozyOS answers
// 404 or 405) gets the same audit computed in the browser, off the main thread, and the
// result says so. The summary diff of "Compare with the previous summary" runs there too.
import { queryOptions } from "@tanstack/react-query";
import type { CompactionAudit as Audit } from "../audit/types";
import { CompactionAudit } from "../contract/compaction-audit";
import { ApiError, apiBase, apiToken, getJson, sessionPath } from "./http";
import { runOffThread } from "./off-thread";
import type { SessionRef } from "./session-queries";

export type AuditResult = { audit: Audit; computedIn: "daemon" | "browser" };

function isMissingRoute(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 405);
}

export const auditQueries = {
  all: (sessionId: string) => ["sessions", "audit", sessionId] as const,
  detail: ({ workspaceId, sessionId }: SessionRef, compactionId: string) =>
    queryOptions({
      queryKey: [...auditQueries.all(sessionId), compactionId] as const,
      queryFn: async ({ signal }): Promise<AuditResult> => {
        const path = sessionPath(workspaceId, sessionId);
        try {
          const audit = await getJson(
            `${path}/compactions/${encodeURIComponent(compactionId)}/audit`,
            CompactionAudit,
            { signal },
          );
          return { audit, computedIn: "daemon" };
        } catch (error) {
          if (!isMissingRoute(error)) throw error;
        }
        const request = {
          base: apiBase(),
          token: apiToken(),
          sessionPath: path,
          sessionId,
          compactionId,
        };
        const audit = await runOffThread({ kind: "audit", request }, signal);
        return { audit: CompactionAudit.parse(audit), computedIn: "browser" };
      },
      // A completed compaction's audit changes only with pins (the toggle invalidates it).
      staleTime: Number.POSITIVE_INFINITY,
    }),
  /** Both summaries belong to completed compactions, so the two ids name the diff. */
  diff: (before: { id: string; text: string }, after: { id: string; text: string }) =>
    queryOptions({
      queryKey: ["audit-diff", before.id, after.id] as const,
      queryFn: ({ signal }) =>
        runOffThread({ kind: "diff", before: before.text, after: after.text }, signal),
      staleTime: Number.POSITIVE_INFINITY,
    }),
};
