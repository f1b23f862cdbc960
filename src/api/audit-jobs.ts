// The work the audit worker does, as plain functions: the browser-side audit (fetching
// and auditing a whole transcript) and the summary diff. `runAuditJob` is also what runs
// inline where there is no Worker (tests, very old browsers).
import type { CompactionAudit } from "../audit/types";
import { type SummaryDiff, summaryDiff } from "../lib/summary-diff";
import { auditInBrowser, type BrowserAuditRequest } from "./audit-in-browser";

export type AuditJob =
  | { kind: "audit"; request: BrowserAuditRequest }
  | { kind: "diff"; before: string; after: string };

export type AuditJobResult<J extends AuditJob> = J extends { kind: "audit" }
  ? CompactionAudit
  : SummaryDiff;

export async function runAuditJob(job: AuditJob, signal?: AbortSignal): Promise<unknown> {
  if (job.kind === "audit") return auditInBrowser(job.request, signal);
  return summaryDiff(job.before, job.after);
}
