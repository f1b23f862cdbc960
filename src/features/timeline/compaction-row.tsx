import type { CompactionMarkerView } from "../../api/usage-queries";
import { Spinner } from "../../components/spinner";
import type { CompactionItem } from "../../contract/transcript";
import { compactionOrigin, describeOrigin } from "../../lib/compaction-origin";
import { isInterrupted } from "../../lib/compaction-words";
import { formatDuration } from "../../lib/format-duration";
import { formatClockTime, millisecondsBetween } from "../../lib/format-time";
import { CompactionAuditDetails, CompactionAuditHead } from "./compaction-audit";
import { useCompactionSurroundings } from "./compaction-context";
import { CompactionSummary } from "./compaction-summary";
import {
  beforeAfterFigures,
  type CompactionTone,
  type CompactionView,
  describeCompaction,
  summaryLabel,
  summaryOf,
} from "./compaction-view";
import { COMPACTION_ICON, COMPACTION_TONE } from "./row-looks";
import { useNow } from "./use-now";

const TONE_CLASSES: Record<CompactionTone, string> = COMPACTION_TONE;

const ICONS: Record<CompactionTone, string> = COMPACTION_ICON;

/**
 * One compaction, updated in place as the stream patches it. Its own role element is kept
 * quiet (`aria-live="off"`): the timeline's single live region announces the terminal
 * status once, so scrolling an old failed row back into view never re-alerts.
 */
export function CompactionRow({
  item,
  marker,
}: {
  item: CompactionItem;
  marker?: CompactionMarkerView | undefined;
}) {
  const { offline, exitFor, requestFor } = useCompactionSurroundings();
  const view = describeCompaction(
    item,
    isInterrupted(item) ? { reason: exitFor(item.compaction_id) } : undefined,
  );
  // While the daemon is unreachable nobody knows whether it is still running: the clock stops.
  const now = useNow(item.status === "in_progress" && !offline);
  const summary = summaryOf(item);
  const elapsed = millisecondsBetween(
    item.started_at,
    item.ended_at ?? new Date(now).toISOString(),
  );
  const figures = beforeAfterFigures(marker, item.status);
  const request = requestFor(item.compaction_id);
  // Without a marker only a known request is worded: "on its own" would be a guess.
  const origin =
    marker || request ? describeOrigin(compactionOrigin(marker?.trigger, request)) : undefined;
  return (
    <div className={`rounded-md border px-3 py-2 text-sm ${TONE_CLASSES[view.tone]}`}>
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <StatusLine view={view} />
        {item.status === "in_progress" && elapsed !== undefined ? (
          <span className="tabular-nums whitespace-nowrap">
            {formatDuration(elapsed)}
            {offline ? " · paused while the daemon is unreachable" : null}
          </span>
        ) : null}
      </div>
      <p className="mt-0.5 text-xs opacity-90">
        {origin ? <span>{origin} · </span> : null}
        <CompactionTimes item={item} finished={view.finished} elapsed={elapsed} />
        {figures ? <span className="whitespace-nowrap"> · {figures}</span> : null}
      </p>
      <CompactionAuditHead item={item} />
      {summary ? (
        <CompactionSummary
          compactionId={item.compaction_id}
          summary={summary}
          label={summaryLabel(item.status)}
          startedAt={item.started_at}
        />
      ) : null}
      <CompactionAuditDetails item={item} />
    </div>
  );
}

function StatusLine({ view }: { view: CompactionView }) {
  const content = (
    <>
      {view.spinner ? <Spinner /> : <span aria-hidden="true">{ICONS[view.tone]}</span>}
      <span>{view.text}</span>
    </>
  );
  const className = "flex items-center gap-2 font-medium";
  return view.role === "alert" ? (
    <div role="alert" aria-live="off" aria-label={view.text} className={className}>
      {content}
    </div>
  ) : (
    <div role="status" aria-live="off" aria-label={view.text} className={className}>
      {content}
    </div>
  );
}

function CompactionTimes({
  item,
  finished,
  elapsed,
}: {
  item: CompactionItem;
  finished: boolean;
  elapsed: number | undefined;
}) {
  const started = <time dateTime={item.started_at}>{formatClockTime(item.started_at)}</time>;
  if (!finished || !item.ended_at) return <span>Started {started}</span>;
  return (
    <span>
      {started} → <time dateTime={item.ended_at}>{formatClockTime(item.ended_at)}</time>
      {elapsed !== undefined ? ` (${formatDuration(elapsed)})` : null}
    </span>
  );
}
