import { useQuery } from "@tanstack/react-query";
import { Suspense } from "react";
import { type AuditResult, auditQueries } from "../../api/audit-queries";
import type { SessionRef } from "../../api/session-queries";
import { Button } from "../../components/button";
import { Spinner } from "../../components/spinner";
import type { CompactionItem } from "../../contract/transcript";
import { formatClockTime } from "../../lib/format-time";
import { lazyAfterPaint } from "../../lib/lazy-after-paint";
import { spanLine } from "./compaction-audit-view";
import { summaryOf } from "./compaction-view";
import { useTimelineSession } from "./timeline-session";
import { useTimelineActions } from "./timeline-store";
import { useRemindAgent } from "./use-remind-agent";

// The audit of a completed compaction, in two places on its row: the head (pinned messages
// the summary lost, the replaced span with a jump to its first turn) above the summary, and
// the details (the inventory, the comparison) below it. Both read one cached query.

// The inventory and the comparison are below the summary, opened by hand: a chunk of their
// own (ADR 0211).
const AuditInventory = lazyAfterPaint(() =>
  import("./compaction-audit-inventory").then((module) => module.AuditInventory),
);
const SummaryComparison = lazyAfterPaint(() =>
  import("./compaction-audit-compare").then((module) => module.SummaryComparison),
);

/** Only a completed compaction replaced turns; only a session's timeline can ask. */
function useAuditSession(item: CompactionItem): SessionRef | undefined {
  const session = useTimelineSession();
  return item.status === "completed" ? session : undefined;
}

export function CompactionAuditHead({ item }: { item: CompactionItem }) {
  const session = useAuditSession(item);
  return session ? <AuditHeadOf session={session} compactionId={item.compaction_id} /> : null;
}

function AuditHeadOf({ session, compactionId }: { session: SessionRef; compactionId: string }) {
  const result = useQuery(auditQueries.detail(session, compactionId));
  if (result.isPending) {
    return (
      <p className="mt-1 inline-flex items-center gap-1.5 text-xs">
        <Spinner /> Checking what the summary kept…
      </p>
    );
  }
  if (result.isError) {
    return (
      <p className="mt-1 text-xs">
        Couldn't check what the summary kept: {result.error.message}{" "}
        <Button size="sm" tone="ghost" onClick={() => result.refetch()}>
          Try again
        </Button>
      </p>
    );
  }
  return <AuditHead data={result.data} sessionId={session.sessionId} />;
}

function AuditHead({ data, sessionId }: { data: AuditResult; sessionId: string }) {
  const { audit } = data;
  const { jumpRequested } = useTimelineActions();
  const remind = useRemindAgent(sessionId);
  const lostPins = audit.items.filter((item) => audit.pinned_dropped.includes(item.key));
  const first = audit.span.first_entry_id;
  return (
    <>
      {lostPins.length > 0 ? (
        <div className="mt-1.5 flex flex-wrap items-center gap-2 rounded border border-amber-400 bg-amber-50 px-2 py-1 text-xs text-amber-950 dark:border-amber-600 dark:bg-amber-950/60 dark:text-amber-50">
          <span>
            <span aria-hidden="true">★ </span>
            {lostPins.length === 1
              ? "A message you pinned is not in the summary."
              : `${lostPins.length} messages you pinned are not in the summary.`}
          </span>
          <Button size="sm" onClick={() => remind(lostPins)}>
            {lostPins.length === 1 ? "Remind the agent of it" : "Remind the agent of them"}
          </Button>
        </div>
      ) : null}
      <p className="mt-0.5 text-xs">
        {spanLine(audit.span)}
        {first !== null && audit.span.turns > 0 ? (
          <>
            {" · "}
            <button
              type="button"
              onClick={() => jumpRequested(first)}
              className="font-medium underline underline-offset-2"
            >
              Go to turn {audit.span.first_turn_number}
            </button>
          </>
        ) : null}
        {data.computedIn === "browser"
          ? " · checked in this browser (the daemon has no audit)"
          : null}
      </p>
      {audit.summary_readable ? null : (
        <p className="mt-0.5 text-xs">The summary is not readable, so nothing can be checked.</p>
      )}
    </>
  );
}

export function CompactionAuditDetails({ item }: { item: CompactionItem }) {
  const session = useAuditSession(item);
  return session ? <AuditDetailsOf session={session} item={item} /> : null;
}

function AuditDetailsOf({ session, item }: { session: SessionRef; item: CompactionItem }) {
  const result = useQuery(auditQueries.detail(session, item.compaction_id));
  if (!result.data) return null;
  const when = formatClockTime(item.started_at);
  const { audit: data } = result.data;
  return (
    <Suspense fallback={null}>
      <AuditInventory audit={data} sessionId={session.sessionId} when={when} />
      <SummaryComparison audit={data} summary={summaryOf(item)} when={when} />
    </Suspense>
  );
}
