// How a compaction row reads, from its folded item (web-ui.md, "The compaction row").
// Only the three terminal statuses count as finished; a vendor status is shown verbatim.

import type { CompactionMarkerView } from "../../api/usage-queries";
import { type CompactionItem, isTerminalCompactionStatus } from "../../contract/transcript";
import { formatTokens } from "../../lib/format-tokens";

export type CompactionTone = "progress" | "success" | "danger" | "neutral";

export type CompactionView = {
  text: string;
  role: "status" | "alert";
  tone: CompactionTone;
  spinner: boolean;
  finished: boolean;
};

export function describeCompaction(item: CompactionItem): CompactionView {
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
      const error = item.error?.trim();
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

/** `180K → 42K` when the usage marker knows both sides, `180K before` when only one. */
export function beforeAfterFigures(marker: CompactionMarkerView | undefined): string | undefined {
  if (!marker) return undefined;
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
  return isTerminalCompactionStatus(item.status) ? describeCompaction(item).text : undefined;
}
