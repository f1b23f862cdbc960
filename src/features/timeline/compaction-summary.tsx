import { useEffect, useState } from "react";
import { Button } from "../../components/button";
import { SafeMarkdown } from "../../components/safe-markdown";
import { formatClockTime } from "../../lib/format-time";
import { DisclosureButton, useTimelineDisclosure } from "./timeline-disclosure";
import { useTimelineActions } from "./timeline-store";

/**
 * The summary behind a closed disclosure ("Summary", or "Partial summary" for a compaction
 * that did not complete), named by its compaction's time so a list of them is not
 * "Summary, Summary, Summary". Open, a bounded region that scrolls inside itself, with
 * Copy kept in view above it: a 16 KiB summary no longer pushes Copy 6,000 px away.
 */
export function CompactionSummary({
  compactionId,
  summary,
  label = "Summary",
  startedAt,
}: {
  compactionId: string;
  summary: string;
  label?: string;
  startedAt: string;
}) {
  const { open, panelId: regionId, toggle } = useTimelineDisclosure(`summary:${compactionId}`);
  const { revealRequested } = useTimelineActions();
  const when = formatClockTime(startedAt);
  return (
    <div className="mt-1">
      <DisclosureButton
        open={open}
        panelId={regionId}
        aria-label={`${label} of the compaction at ${when}`}
        onClick={() => {
          if (open) return toggle();
          // The reader is reading this summary now: the reveal stops following, so the tail
          // cannot pull it out of view. Opened near the bottom of the view, it would start
          // below it: the list brings it in once it has measured the taller row (not when a
          // row comes back into the window).
          toggle();
          revealRequested(regionId);
        }}
      >
        {label}
      </DisclosureButton>
      {open ? (
        <section
          id={regionId}
          aria-label={`${label} of the compaction at ${when}`}
          className="mt-2 rounded-md border border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
        >
          <div className="flex items-center justify-end gap-2 border-b border-slate-200 px-3 py-1.5 dark:border-slate-700">
            <CopyButton text={summary} />
          </div>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the bounded box scrolls, so it must take keyboard focus. */}
          <div tabIndex={0} className="max-h-[min(24rem,60dvh)] overflow-y-auto p-3">
            <SafeMarkdown text={summary} />
          </div>
        </section>
      ) : null}
    </div>
  );
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (copied === "idle") return;
    const timer = setTimeout(() => setCopied("idle"), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      size="sm"
      onClick={() =>
        navigator.clipboard.writeText(text).then(
          () => setCopied("copied"),
          () => setCopied("failed"),
        )
      }
    >
      {copied === "copied" ? "Copied" : copied === "failed" ? "Copy failed" : "Copy"}
    </Button>
  );
}
