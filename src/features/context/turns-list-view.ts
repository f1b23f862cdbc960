// The turns list as rows: turns newest first with their token figures and cost, compaction
// markers interleaved by sequence, collapsed to the newest turns until expanded.
import type { CompactionMarkerView, UsageTurnsView } from "../../api/usage-queries";
import type { Turn } from "../../contract/usage";
import {
  type CompactionRequest,
  compactionOrigin,
  describeOrigin,
} from "../../lib/compaction-origin";
import { stateWord } from "../../lib/compaction-words";
import { formatCost, formatTokens } from "../../lib/format-tokens";

const TURNS_SHOWN = 50;

type TurnRow = {
  kind: "turn";
  key: string;
  title: string;
  tokens: string | undefined;
  cost: string;
};
type MarkerRow = {
  kind: "compaction";
  key: string;
  text: string;
  /** Failed or cancelled: drawn apart (✕), since it changed nothing the reader can count on. */
  incomplete: boolean;
};
type TurnsListRow = TurnRow | MarkerRow;

export type TurnsListView = { rows: TurnsListRow[]; hiddenTurns: number };

/** `in 1K · out 200 · cache 800`, leaving out what the agent did not report. */
export function describeTokens(usage: Turn["usage"]): string | undefined {
  if (!usage) return undefined;
  const parts: string[] = [];
  if (usage.input_tokens !== undefined) parts.push(`in ${formatTokens(usage.input_tokens)}`);
  if (usage.output_tokens !== undefined) parts.push(`out ${formatTokens(usage.output_tokens)}`);
  if (usage.cache_read_tokens !== undefined) {
    parts.push(`cache ${formatTokens(usage.cache_read_tokens)}`);
  }
  return parts.length > 0 ? parts.join(" · ") : undefined;
}

/** A compaction that ended without completing: it changed nothing the reader can count on. */
export function didNotComplete(marker: Pick<CompactionMarkerView, "status">): boolean {
  return marker.status === "failed" || marker.status === "cancelled";
}

/**
 * `180K → 42K` when both are known, one side alone when only it is, else nothing. A failed
 * or cancelled compaction shows only the reading it started from (`from 8.2K`): an "after"
 * larger than "before" with an arrow between them read as if it had grown the context.
 */
function describeDrop(marker: CompactionMarkerView): string | undefined {
  if (didNotComplete(marker)) {
    return marker.context_used !== undefined
      ? `from ${formatTokens(marker.context_used)}`
      : undefined;
  }
  const before = marker.context_used;
  const after = marker.context_after?.used;
  if (before !== undefined && after !== undefined) {
    return `${formatTokens(before)} → ${formatTokens(after)}`;
  }
  if (before !== undefined) return `${formatTokens(before)} before`;
  if (after !== undefined) return `${formatTokens(after)} after`;
  return undefined;
}

/** Compaction id → who asked for it (from the loaded transcript). */
export type CompactionRequests = Readonly<Record<string, CompactionRequest>>;

/** `You pressed Compact now · completed · 180K → 42K`. */
export function describeMarker(
  marker: CompactionMarkerView,
  requests: CompactionRequests = {},
): string {
  const who = describeOrigin(compactionOrigin(marker.trigger, requests[marker.compaction_id]));
  const status = stateWord(marker.interrupted ? "interrupted" : marker.status);
  const drop = describeDrop(marker);
  return [who, status, drop].filter((part) => part !== undefined).join(" · ");
}

/**
 * What each turn cost. ACP reports cost as the session's running total, so a turn's own
 * cost is its total less the total before it (same currency). A turn with no reading has
 * no cost of its own ("—"); a currency change restarts the count from that reading.
 */
export function turnCosts(turns: readonly Turn[]): Map<string, string> {
  const costs = new Map<string, string>();
  let previous: { amount: number; currency: string | undefined } | undefined;
  for (const turn of [...turns].sort((a, b) => a.sequence - b.sequence)) {
    const amount = turn.usage?.cost_amount;
    if (amount === undefined) continue;
    const currency = turn.usage?.cost_currency;
    const before = previous !== undefined && previous.currency === currency ? previous.amount : 0;
    costs.set(turn.turn_id, formatCost(Math.max(0, amount - before), currency));
    previous = { amount, currency };
  }
  return costs;
}

/**
 * What the session has cost so far: the daemon's total when it has one, else the newest
 * running total a turn reported (ACP costs are running totals). Undefined when nothing did.
 */
export function sessionTotal(
  usage: { total_cost?: number | null | undefined; cost_currency?: string | undefined } | undefined,
  turns: readonly Turn[],
): string | undefined {
  if (usage?.total_cost !== undefined && usage.total_cost !== null) {
    return formatCost(usage.total_cost, usage.cost_currency);
  }
  const newest = [...turns]
    .sort((a, b) => b.sequence - a.sequence)
    .find((turn) => turn.usage?.cost_amount !== undefined);
  const amount = newest?.usage?.cost_amount;
  return amount === undefined ? undefined : formatCost(amount, newest?.usage?.cost_currency);
}

/** Kept per turns array (the query cache keeps it identical while unchanged): the chart and the list both ask. */
const numbersOf = new WeakMap<readonly Turn[], ReadonlyMap<string, number>>();

export function turnNumbers(turns: readonly Turn[]): ReadonlyMap<string, number> {
  const known = numbersOf.get(turns);
  if (known) return known;
  const ascending = [...turns].sort((a, b) => a.sequence - b.sequence);
  const numbers = new Map(ascending.map((turn, index) => [turn.turn_id, index + 1]));
  numbersOf.set(turns, numbers);
  return numbers;
}

export function deriveTurnsList(
  data: UsageTurnsView,
  options: { expanded: boolean; limit?: number; requests?: CompactionRequests },
): TurnsListView {
  const limit = options.limit ?? TURNS_SHOWN;
  const numbers = turnNumbers(data.turns);
  const costs = turnCosts(data.turns);
  const newestFirst = [...data.turns].sort((a, b) => b.sequence - a.sequence);
  const shownTurns = options.expanded ? newestFirst : newestFirst.slice(0, limit);
  const hiddenTurns = newestFirst.length - shownTurns.length;
  // Markers inside a hidden turn hide with it: keep those at or after the oldest shown turn.
  const oldestShown = shownTurns.at(-1);
  const cut = hiddenTurns > 0 && oldestShown ? oldestShown.sequence : Number.NEGATIVE_INFINITY;

  const rows: Array<{ sequence: number; order: number; row: TurnsListRow }> = [];
  for (const turn of shownTurns) {
    rows.push({
      sequence: turn.sequence,
      order: 0,
      row: {
        kind: "turn",
        key: `turn-${turn.turn_id}`,
        title: `Turn ${numbers.get(turn.turn_id) ?? "?"}`,
        tokens: describeTokens(turn.usage),
        cost: costs.get(turn.turn_id) ?? "—",
      },
    });
  }
  for (const marker of data.compactions) {
    if (marker.sequence < cut) continue;
    rows.push({
      sequence: marker.sequence,
      order: 1,
      row: {
        kind: "compaction",
        key: `compaction-${marker.compaction_id}`,
        text: describeMarker(marker, options.requests),
        incomplete: didNotComplete(marker),
      },
    });
  }
  // Newest first; at an equal sequence the marker (which happened within the turn) is newer.
  rows.sort((a, b) => b.sequence - a.sequence || b.order - a.order);
  return { rows: rows.map((entry) => entry.row), hiddenTurns };
}
