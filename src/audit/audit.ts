// The compaction audit (ADR 0155): what a compaction's summary kept and dropped of the span
// it replaced. Pure and deterministic: the same entries and summary give the same audit on
// the daemon and in the SPA. No model, no network.
import { AUDIT_ITEMS_PER_KIND } from "../contract/compaction-audit";
import type { Entry } from "../contract/transcript";
import { checkCandidate, indexSummary, type SummaryIndex } from "./check";
import { type Candidate, Inventory, isPersonMessage, textOf } from "./inventory";
import { mergePaths } from "./merge-paths";
import { describeSpan } from "./span";
import type {
  AuditedCompaction,
  AuditInput,
  AuditItem,
  AuditItemKind,
  AuditItemStatus,
  CompactionAudit,
} from "./types";

/** Identifiers and URLs count from their second mention (one passing mention is noise). */
const REPEATED_KINDS: ReadonlySet<AuditItemKind> = new Set(["identifier", "url"]);
const STATUS_ORDER: Record<AuditItemStatus, number> = { dropped: 0, unchecked: 1, kept: 2 };
const KIND_ORDER: Record<AuditItemKind, number> = {
  pinned: 0,
  last_request: 1,
  instruction: 2,
  path: 3,
  command: 4,
  error: 5,
  plan: 6,
  identifier: 7,
  url: 8,
};

/** The summary the audit can read: a completed compaction's non-blank summary text. */
function readableSummary(compaction: AuditedCompaction): string | undefined {
  const { status, summary } = compaction.item;
  if (status !== "completed" || summary === undefined || summary.trim() === "") return undefined;
  return summary;
}

/**
 * A person's message that is a slash command (`/demo lossy`, `/review`) asks the agent to do
 * something now; it is not an instruction a summary must carry (ADR 0155).
 */
function isInstruction(entry: Entry): boolean {
  return isPersonMessage(entry) && !/^\s*\/[\w:-]+(\s|$)/.test(textOf(entry));
}

function inventoryOf(
  entries: readonly Entry[],
  pinned: ReadonlySet<string>,
  pinnedBefore: readonly Entry[],
): Candidate[] {
  const inventory = new Inventory(pinned);
  const spanIds = new Set(entries.map((entry) => entry.message.id));
  for (const entry of pinnedBefore) {
    if (pinned.has(entry.message.id) && !spanIds.has(entry.message.id) && isInstruction(entry)) {
      inventory.addPersonMessage(entry, "instruction");
    }
  }
  // Pins from earlier spans came first; the span's own entries start their own turns.
  inventory.startSpan();
  let lastRequest: Entry | undefined;
  for (const entry of entries) if (isInstruction(entry)) lastRequest = entry;
  for (const entry of entries) {
    if (entry.message.role === "system" && entry.message.parts.some(isCompactionPart)) continue;
    if (isInstruction(entry)) {
      inventory.addPersonMessage(entry, entry === lastRequest ? "last_request" : "instruction");
    } else {
      inventory.addEntry(entry);
    }
  }
  return mergePaths(inventory.candidates()).filter(
    (candidate) => !REPEATED_KINDS.has(candidate.kind) || candidate.mentions > 1,
  );
}

function isCompactionPart(part: { type: string }): boolean {
  return part.type === "data-compozy-compaction";
}

function toItem(candidate: Candidate, status: AuditItemStatus, why: string): AuditItem {
  const item: AuditItem = {
    key: candidate.key,
    kind: candidate.kind,
    label: candidate.label,
    status,
    why,
    entry_id: candidate.entry_id,
    mentions: candidate.mentions,
    pinned: candidate.pinned,
    by_person: candidate.by_person,
  };
  if (candidate.turn_id !== undefined) item.turn_id = candidate.turn_id;
  return item;
}

function checkAll(candidates: Candidate[], index: SummaryIndex | undefined): AuditItem[] {
  return candidates.map((candidate) => {
    if (index === undefined) {
      return toItem(candidate, "unchecked", "the summary is not readable, so nothing was checked");
    }
    const verdict = checkCandidate(candidate, index);
    return toItem(candidate, verdict.kept ? "kept" : "dropped", verdict.why);
  });
}

/** Dropped first, then unchecked, then kept; pinned and the last request lead each group. */
function ordered(items: AuditItem[]): AuditItem[] {
  return items
    .map((item, position) => ({ item, position }))
    .sort(
      (a, b) =>
        STATUS_ORDER[a.item.status] - STATUS_ORDER[b.item.status] ||
        Number(b.item.pinned) - Number(a.item.pinned) ||
        KIND_ORDER[a.item.kind] - KIND_ORDER[b.item.kind] ||
        a.position - b.position,
    )
    .map(({ item }) => item);
}

/** At most `AUDIT_ITEMS_PER_KIND` of each kind, keeping the order (dropped ones first). */
function listed(items: AuditItem[]): AuditItem[] {
  const perKind = new Map<AuditItemKind, number>();
  return items.filter((item) => {
    const count = perKind.get(item.kind) ?? 0;
    perKind.set(item.kind, count + 1);
    return count < AUDIT_ITEMS_PER_KIND;
  });
}

function lostSincePrevious(
  input: AuditInput,
  index: SummaryIndex | undefined,
  pinned: ReadonlySet<string>,
): CompactionAudit["previous"] {
  const previous = input.previous;
  if (previous === undefined) return null;
  const summary = readableSummary(previous.compaction) ?? null;
  const comparison = {
    compaction_id: previous.compaction.item.compaction_id,
    summary: previous.compaction.item.summary ?? null,
  };
  if (summary === null || index === undefined) return { ...comparison, lost: [] };
  const earlier = inventoryOf(previous.entries, pinned, input.pinned_entries ?? []);
  const earlierIndex = indexSummary(summary);
  const lost: AuditItem[] = [];
  for (const candidate of earlier) {
    if (!checkCandidate(candidate, earlierIndex).kept) continue;
    const now = checkCandidate(candidate, index);
    if (now.kept) continue;
    lost.push(toItem(candidate, "dropped", `the previous summary kept it; now ${now.why}`));
  }
  return { ...comparison, lost: listed(ordered(lost)) };
}

export function auditCompaction(input: AuditInput): CompactionAudit {
  const pinned = new Set(input.pinned_entry_ids);
  const summary = readableSummary(input.compaction);
  const index = summary === undefined ? undefined : indexSummary(summary);
  const candidates = inventoryOf(input.entries, pinned, input.pinned_entries ?? []);
  const all = ordered(checkAll(candidates, index));
  const items = listed(all);
  const count = (status: AuditItemStatus) => all.filter((item) => item.status === status).length;
  return {
    session_id: input.session_id,
    compaction_id: input.compaction.item.compaction_id,
    summary_readable: summary !== undefined,
    span: describeSpan(input.entries, input.turn_numbers),
    items,
    counts: {
      total: all.length,
      kept: count("kept"),
      dropped: count("dropped"),
      unchecked: count("unchecked"),
    },
    omitted: all.length - items.length,
    pinned_dropped: all
      .filter((item) => item.pinned && item.status === "dropped")
      .map((item) => item.key),
    previous: lostSincePrevious(input, index, pinned),
  };
}
