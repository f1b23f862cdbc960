// How a compaction row reads, from its folded item (web-ui.md, "The compaction row").
// Only the three terminal statuses count as finished; a vendor status is shown verbatim.

import type { CompactionMarkerView } from "../../api/usage-queries";
import { type CompactionItem, isTerminalCompactionStatus } from "../../contract/transcript";
import { failureDetail, isInterrupted } from "../../lib/compaction-words";
import { formatTokens } from "../../lib/format-tokens";

export type CompactionTone = "progress" | "success" | "danger" | "neutral";

export type CompactionView = {
  text: string;
  role: "status" | "alert";
  tone: CompactionTone;
  spinner: boolean;
  finished: boolean;
};

/** An interrupted compaction (the agent went away): why, in the row's own words. */
const INTERRUPTED_FALLBACK = "the agent exited before it finished";

export function describeCompaction(
  item: CompactionItem,
  interruption?: { reason: string | undefined },
): CompactionView {
  if (interruption) {
    return {
      text: `Context compaction interrupted — ${interruption.reason ?? INTERRUPTED_FALLBACK}`,
      role: "alert",
      tone: "danger",
      spinner: false,
      finished: true,
    };
  }
  switch (item.status) {
    case "in_progress":
      return {
        text: "Compacting context…",
        role: "status",
        tone: "progress",
        spinner: true,
        finished: false,
      };
    case "completed":
      return {
        text: "Context compacted",
        role: "status",
        tone: "success",
        spinner: false,
        finished: true,
      };
    case "failed": {
      // "failed" is said once: an agent's "Compaction failed: …" keeps only what follows.
      const error = failureDetail(item.error);
      return {
        text: error ? `Context compaction failed — ${error}` : "Context compaction failed",
        role: "alert",
        tone: "danger",
        spinner: false,
        finished: true,
      };
    }
    case "cancelled":
      return {
        text: "Context compaction cancelled",
        role: "status",
        tone: "neutral",
        spinner: false,
        finished: true,
      };
    default:
      return {
        text: item.status,
        role: "status",
        tone: "neutral",
        spinner: false,
        finished: false,
      };
  }
}

/** The summary worth disclosing: present and not blank. */
export function summaryOf(item: CompactionItem): string | undefined {
  return item.summary?.trim() ? item.summary : undefined;
}

/** The summary's disclosure label: a summary of a compaction that did not complete is partial. */
export function summaryLabel(status: string): string {
  return status === "completed" ? "Summary" : "Partial summary";
}

/**
 * `180K → 42K tokens` for a completed compaction whose marker knows both sides; one side
 * alone when only it is known. A compaction that did not complete changed nothing the
 * reader can count on: only the reading it started from (`from 8.2K tokens`), no arrow.
 */
export function beforeAfterFigures(
  marker: CompactionMarkerView | undefined,
  status: string,
): string | undefined {
  if (!marker) return undefined;
  if (status === "failed" || status === "cancelled") {
    return marker.context_used !== undefined
      ? `from ${formatTokens(marker.context_used)} tokens`
      : undefined;
  }
  if (status !== "completed") return undefined;
  const before = marker.context_used;
  const after = marker.context_after?.used;
  if (before !== undefined && after !== undefined)
    return `${formatTokens(before)} → ${formatTokens(after)} tokens`;
  if (before !== undefined) return `${formatTokens(before)} tokens before`;
  if (after !== undefined) return `${formatTokens(after)} tokens after`;
  return undefined;
}

/** What the single polite live region says when a compaction reaches a terminal status. */
export function terminalAnnouncement(item: CompactionItem): string | undefined {
  if (!isTerminalCompactionStatus(item.status)) return undefined;
  return describeCompaction(item, isInterrupted(item) ? { reason: undefined } : undefined).text;
}
