import { useQuery } from "@tanstack/react-query";
import { auditQueries } from "../../api/audit-queries";
import type { CompactionAudit } from "../../audit/types";
import { Spinner } from "../../components/spinner";
import type { SummaryDiff, SummaryDiffPart } from "../../lib/summary-diff";
import { AuditItemView } from "./compaction-audit-item";
import { DisclosureButton, useTimelineDisclosure } from "./timeline-disclosure";

/**
 * "Compare with the previous summary" (from a session's second compaction on): what the
 * earlier summary kept that this one lost, and a word diff of the two summaries, computed
 * off the main thread when the disclosure opens.
 */
export function SummaryComparison({
  audit,
  summary,
  when,
}: {
  audit: CompactionAudit;
  summary: string | undefined;
  when: string;
}) {
  const previous = audit.previous;
  const {
    open,
    panelId: regionId,
    toggle,
  } = useTimelineDisclosure(`audit-compare:${audit.compaction_id}`);
  if (previous === null) return null;
  const lost = previous.lost.length;
  return (
    <div className="mt-1">
      <DisclosureButton open={open} panelId={regionId} onClick={toggle}>
        Compare with the previous summary
        {lost > 0 ? " " : null}
        {lost > 0 ? <span className="font-normal">· {lost} lost since then</span> : null}
      </DisclosureButton>
      {open ? (
        <section
          id={regionId}
          aria-label={`The summary of the compaction at ${when} against the previous one`}
          className="mt-2 space-y-3 rounded-md border border-slate-200 bg-white p-3 text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
        >
          <div>
            <p className="text-sm font-semibold">Kept last time, not this time ({lost})</p>
            {lost > 0 ? (
              <ul className="divide-y divide-slate-200 dark:divide-slate-800">
                {previous.lost.map((item) => (
                  <AuditItemView key={item.key} item={item} />
                ))}
              </ul>
            ) : (
              <p className="text-sm">Nothing the previous summary kept went missing.</p>
            )}
          </div>
          {previous.summary !== null && summary !== undefined ? (
            <WordDiff
              before={{ id: previous.compaction_id, text: previous.summary }}
              after={{ id: audit.compaction_id, text: summary }}
            />
          ) : (
            <p className="text-sm">
              One of the two summaries is not readable: there is no text to compare.
            </p>
          )}
        </section>
      ) : null}
    </div>
  );
}

function WordDiff({
  before,
  after,
}: {
  before: { id: string; text: string };
  after: { id: string; text: string };
}) {
  const diff = useQuery(auditQueries.diff(before, after));
  if (diff.isPending) {
    return (
      <p className="inline-flex items-center gap-2 text-sm">
        <Spinner /> Comparing the summaries…
      </p>
    );
  }
  if (diff.isError)
    return <p className="text-sm">Couldn't compare the summaries: {diff.error.message}</p>;
  return <DiffText diff={diff.data} />;
}

function DiffText({ diff }: { diff: SummaryDiff }) {
  if (diff.kind === "too_different") {
    return <p className="text-sm">The two summaries share too little to compare word by word.</p>;
  }
  return (
    <div>
      <p className="text-sm font-semibold">
        Word changes{" "}
        <span className="font-normal">
          · {diff.added} words added, {diff.removed} removed
        </span>
      </p>
      <section
        aria-label="Word changes between the summaries"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the bounded box scrolls, so it must take keyboard focus.
        tabIndex={0}
        className="mt-1 max-h-[min(24rem,60dvh)] overflow-y-auto rounded border border-slate-200 p-2 text-sm break-words whitespace-pre-wrap dark:border-slate-700"
      >
        {diff.parts.map((part, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a diff's parts never reorder.
          <DiffPart key={index} part={part} />
        ))}
      </section>
    </div>
  );
}

function DiffPart({ part }: { part: SummaryDiffPart }) {
  if (part.kind === "same") return <span>{part.text}</span>;
  const Tag = part.kind === "added" ? "ins" : "del";
  const tone =
    part.kind === "added"
      ? "bg-emerald-100 text-emerald-950 no-underline dark:bg-emerald-900/70 dark:text-emerald-50"
      : "bg-red-100 text-red-950 dark:bg-red-900/70 dark:text-red-50";
  return (
    <Tag className={tone}>
      <span className="sr-only">[{part.kind}: </span>
      {part.text}
      <span className="sr-only">]</span>
    </Tag>
  );
}
