// The compaction audit (a Tideline extension, `GET …/compactions/{compaction_id}/audit`): what a
// compaction's summary kept and dropped of the turns it replaced. The daemon computes it with
// `src/audit/`; against a daemon without the route the SPA computes the same shape itself.

import { Count, Id } from "./primitives";
import { z } from "./zod";

const AUDIT_ITEM_KINDS = [
  "instruction",
  "last_request",
  "pinned",
  "path",
  "command",
  "error",
  "identifier",
  "url",
  "plan",
] as const;
export const AuditItemKind = z.enum(AUDIT_ITEM_KINDS);
export type AuditItemKind = z.infer<typeof AuditItemKind>;

/** `unchecked`: the compaction has no readable summary (Codex), so nothing can be checked. */
const AUDIT_ITEM_STATUSES = ["kept", "dropped", "unchecked"] as const;
export const AuditItemStatus = z.enum(AUDIT_ITEM_STATUSES);
export type AuditItemStatus = z.infer<typeof AuditItemStatus>;

/** A kind lists at most this many items (10,000 paths in one span stay a bounded answer). */
export const AUDIT_ITEMS_PER_KIND = 500;

export const AuditItem = z.object({
  /** Stable within a session: `path:src/auth.ts`, `instruction:<entry id>`. */
  key: z.string().check(z.minLength(1)),
  kind: AuditItemKind,
  /** What the person reads: the path, the command, the instruction's full text. Plain text. */
  label: z.string(),
  status: AuditItemStatus,
  /** The match explained: "the summary names auth.ts", "4 of 9 distinctive words". */
  why: z.string(),
  /** The transcript entry (message id) of its first mention in the span. */
  entry_id: z.string(),
  turn_id: z.optional(z.string()),
  mentions: Count,
  pinned: z.boolean(),
  /** The person's own words (a user message): Remind the agent quotes them verbatim. */
  by_person: z.boolean(),
});
export type AuditItem = z.infer<typeof AuditItem>;

export const AuditSpan = z.object({
  first_turn_id: z.nullable(z.string()),
  last_turn_id: z.nullable(z.string()),
  /** 1-based, as the turns list numbers them; 0 when the span holds no turn. */
  first_turn_number: Count,
  last_turn_number: Count,
  first_entry_id: z.nullable(z.string()),
  turns: Count,
  messages: Count,
});
export type AuditSpan = z.infer<typeof AuditSpan>;

const AuditCounts = z.object({
  total: Count,
  kept: Count,
  dropped: Count,
  unchecked: Count,
});

const PreviousSummaryComparison = z.object({
  compaction_id: Id,
  /** The previous summary text, for the word diff; `null` when it had none. */
  summary: z.nullable(z.string()),
  /** Items the previous summary kept that this one does not carry. */
  lost: z.array(AuditItem),
});

export const CompactionAudit = z.object({
  session_id: Id,
  compaction_id: Id,
  summary_readable: z.boolean(),
  span: AuditSpan,
  /** Dropped first, then unchecked, then kept; stable order within each. */
  items: z.array(AuditItem),
  /** Counts over every item checked, listed or not. */
  counts: AuditCounts,
  /** Items checked but not listed: each kind lists at most `AUDIT_ITEMS_PER_KIND`, dropped first. */
  omitted: Count,
  /** Keys of pinned items the summary does not carry. */
  pinned_dropped: z.array(z.string()),
  /** From the session's second compaction on. */
  previous: z.nullable(PreviousSummaryComparison),
});
export type CompactionAudit = z.infer<typeof CompactionAudit>;
