// What the context meter shows, as a pure function of the usage query and the compaction
// markers. The rule it guarantees: a figure read before a compaction is never shown as the
// current one. The daemon already clears its reading at a compaction boundary, but the
// usage and turns caches are re-read independently, so the SPA may briefly hold a usage
// answer older than a marker it already knows. The markers can only take a figure away
// here, never supply one: the usage endpoint stays the one source of a current reading.

import type { CompactionMarkerView } from "../../api/usage-queries";
import type { ContextReading, SessionUsage } from "../../contract/usage";
import { formatPercent, formatTokens } from "../../lib/format-tokens";

export type UsageQueryState = {
  status: "pending" | "error" | "success";
  data?: SessionUsage | undefined;
  error?: Error | null | undefined;
};

type MeterKind = "loading" | "error" | "reading" | "compacting" | "unknown" | "unavailable";

export type MeterView = {
  kind: MeterKind;
  headline: string;
  detail: string | undefined;
  /** Bar fill, 0..1; undefined draws an empty track (no figure, or no window size). */
  fill: number | undefined;
  estimatedSize: boolean;
  valueNow: number | undefined;
  valueMax: number | undefined;
  valueText: string;
};

export const METER_COPY = {
  loading: "Loading context",
  error: "Usage unavailable",
  unknown: "Context usage unknown",
  compacted: "Context compacted. Waiting for the agent's next usage report.",
  compactionFailed:
    "The compaction failed, and the context may have changed. Waiting for the agent's next usage report.",
  compactionCancelled:
    "The compaction stopped before it finished, and the context may have changed. Waiting for the agent's next usage report.",
  neverReported: "This agent hasn't reported context usage.",
  unavailable: "Context usage unavailable",
  unavailableDetail: "The daemon can't provide context usage for this session.",
  notReported: "No context reading",
  notReportedDetail: "This daemon reports no context usage (it predates context readings).",
  compacting: "Compacting context…",
} as const;

const TERMINAL_STATUSES = new Set(["completed", "failed", "cancelled"]);

export function isTerminalStatus(status: string): boolean {
  return TERMINAL_STATUSES.has(status);
}

/** Why there is no figure after a compaction, in the words of how that compaction ended. */
function afterCompactionCopy(status: string | undefined): string {
  if (status === "failed") return METER_COPY.compactionFailed;
  if (status === "cancelled") return METER_COPY.compactionCancelled;
  return METER_COPY.compacted;
}

/** The compaction that took the figure away: the one the daemon names, else the newest finished one. */
function clearingStatus(
  markers: readonly CompactionMarkerView[],
  clearedBy: string | undefined,
): string | undefined {
  const named = clearedBy
    ? markers.find((marker) => marker.compaction_id === clearedBy)
    : undefined;
  if (named) return named.status;
  return markers.filter((marker) => isTerminalStatus(marker.status)).at(-1)?.status;
}

/**
 * Whether a reading was taken before this compaction. A reading at or after the marker's
 * first post-compaction reading (`context_after`) is newer than it; otherwise sequences
 * decide, then timestamps; with neither, the daemon's word stands.
 */
export function readingPredates(reading: ContextReading, marker: CompactionMarkerView): boolean {
  if (reading.sequence !== undefined) {
    if (marker.context_after && reading.sequence >= marker.context_after.sequence) return false;
    return reading.sequence < marker.sequence;
  }
  if (reading.reported_at !== undefined) {
    return Date.parse(reading.reported_at) < Date.parse(marker.at);
  }
  return false;
}

/** A number to expose as a meter: a figure and the window it is measured against. */
export function hasMeterValue(
  view: MeterView,
): view is MeterView & { valueNow: number; valueMax: number } {
  return view.valueNow !== undefined && view.valueMax !== undefined;
}

function plain(kind: MeterKind, headline: string, detail?: string): MeterView {
  return {
    kind,
    headline,
    detail,
    fill: undefined,
    estimatedSize: false,
    valueNow: undefined,
    valueMax: undefined,
    valueText: detail ? `${headline}${/[.…]$/.test(headline) ? "" : "."} ${detail}` : headline,
  };
}

/** The figure in the meter's words: `35%` + `89.7K / 256K`, or `89.7K used` without a size. */
function describeFigure(used: number, size: number | undefined, ratio: number | undefined) {
  if (size === undefined) {
    const short = `${formatTokens(used)} used`;
    return { headline: short, pair: undefined, short, spoken: `${formatTokens(used)} tokens used` };
  }
  const percent = formatPercent(ratio ?? used / size);
  const pair = `${formatTokens(used)} / ${formatTokens(size)}`;
  const spoken = `${percent} used, ${formatTokens(used)} of ${formatTokens(size)} tokens`;
  return { headline: percent, pair, short: pair, spoken };
}

export function deriveMeterView(
  usage: UsageQueryState,
  markers: readonly CompactionMarkerView[] | undefined,
): MeterView {
  // A failed re-read means usage changed and we could not see how: the cached figure may
  // be from before a compaction, so it is not shown.
  if (usage.status === "error") return plain("error", METER_COPY.error, usage.error?.message);
  if (usage.status === "pending" || usage.data === undefined) {
    return plain("loading", METER_COPY.loading);
  }

  const context = usage.data.context;
  // An older CompozyOS has token totals but no context reading at all.
  if (context === undefined) {
    return plain("unavailable", METER_COPY.notReported, METER_COPY.notReportedDetail);
  }
  if (context.state === "unavailable") {
    return plain("unavailable", METER_COPY.unavailable, METER_COPY.unavailableDetail);
  }

  const known = markers ?? [];
  const anyTerminal = known.some((marker) => isTerminalStatus(marker.status));
  const unknown = () =>
    plain(
      "unknown",
      METER_COPY.unknown,
      context.cleared_by || anyTerminal
        ? afterCompactionCopy(clearingStatus(known, context.cleared_by?.compaction_id))
        : METER_COPY.neverReported,
    );

  const used = context.used;
  if (context.state === "unknown" || used === undefined) return unknown();

  const after = known.filter((marker) => readingPredates(context, marker));
  const finishedAfter = after.filter((marker) => isTerminalStatus(marker.status)).at(-1);
  if (finishedAfter) {
    return plain("unknown", METER_COPY.unknown, afterCompactionCopy(finishedAfter.status));
  }

  const size = context.size !== undefined && context.size > 0 ? context.size : undefined;
  const shown = describeFigure(used, size, context.ratio);
  const pending = after[0];
  if (pending) {
    const headline =
      pending.status === "in_progress" ? METER_COPY.compacting : `Compaction ${pending.status}`;
    return plain("compacting", headline, `Before it: ${shown.short}`);
  }

  if (size === undefined) {
    return {
      kind: "reading",
      headline: shown.headline,
      detail: undefined,
      fill: undefined,
      estimatedSize: false,
      valueNow: used,
      valueMax: undefined,
      valueText: `${shown.spoken}, window size unknown`,
    };
  }
  const estimatedSize = context.state === "estimated_size" || context.size_source === "catalog";
  return {
    kind: "reading",
    headline: shown.headline,
    detail: shown.pair,
    fill: Math.min(1, context.ratio ?? used / size),
    estimatedSize,
    valueNow: used,
    valueMax: size,
    valueText: estimatedSize ? `${shown.spoken} (estimated size)` : shown.spoken,
  };
}
