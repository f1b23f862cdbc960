// The audit's shapes: the wire types (from the zod schema in `src/contract/`) and the input of
// the pure `auditCompaction` function that both the daemon and the SPA call.
import type { CompactionItem, Entry } from "../contract/transcript";

export type {
  AuditItem,
  AuditItemKind,
  AuditItemStatus,
  AuditSpan,
  CompactionAudit,
} from "../contract/compaction-audit";

/** A compaction as the audit needs it: the item and the entry that carries it. */
export type AuditedCompaction = {
  item: CompactionItem;
  /** The message id of the transcript entry holding the compaction part. */
  entry_id: string;
};

export type AuditInput = {
  session_id: string;
  /**
   * The transcript entries of the span, in sequence order: everything after the previous
   * compaction's entry (or from the session start) up to, not including, this compaction's.
   */
  entries: readonly Entry[];
  compaction: AuditedCompaction;
  /**
   * The previous compaction and the entries of ITS span, when there is one: the audit
   * re-checks those items against the previous summary to find what this one lost.
   */
  previous?: { compaction: AuditedCompaction; entries: readonly Entry[] } | undefined;
  /**
   * Turn id → its 1-based number as the turns list numbers them (`turnNumbers` of the usage
   * turns). Without it the span's turns are numbered from 1.
   */
  turn_numbers?: ReadonlyMap<string, number> | undefined;
  /** Pinned entry ids (user messages the person marked "keep this"). */
  pinned_entry_ids: readonly string[];
  /**
   * The pinned user messages from before the span: a pin holds across every later
   * compaction, so each summary is checked for them too. Entries not pinned are ignored.
   */
  pinned_entries?: readonly Entry[] | undefined;
};
