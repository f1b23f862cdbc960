import { useEffect, useId, useState } from "react";
import { Button } from "../../components/button";
import { SafeMarkdown } from "../../components/safe-markdown";
import { useItemOpen, useTimelineActions } from "./timeline-store";

/** The summary behind a closed "Summary" disclosure; open, a region with Markdown and Copy. */
export function CompactionSummary({
  compactionId,
  summary,
}: {
  compactionId: string;
  summary: string;
}) {
  const key = `summary:${compactionId}`;
  const open = useItemOpen(key);
  const { openItem, closeItem } = useTimelineActions();
  const regionId = useId();
  return (
    <div className="mt-1">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={regionId}
        onClick={() => (open ? closeItem(key) : openItem(key))}
        className="inline-flex items-center gap-1 rounded text-xs font-medium text-slate-700 underline-offset-2 hover:underline dark:text-slate-200"
      >
        <span aria-hidden="true" className={`transition-transform ${open ? "rotate-90" : ""}`}>
          ▸
        </span>
        Summary
      </button>
      {open ? (
        <section
          id={regionId}
          aria-label="Compaction summary"
          className="mt-2 rounded-md border border-slate-200 bg-white p-3 text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
        >
          <div className="mb-2 flex justify-end">
            <CopyButton text={summary} />
          </div>
          <SafeMarkdown text={summary} />
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
