// Runs a labelled case through `auditCompaction` the way the daemon would: the last span is
// audited, the one before it is the previous compaction, and pinned messages of earlier
// spans come along as `pinned_entries`.
import { compactionOf, type Entry } from "../../contract/transcript";
import { auditCompaction } from "../audit";
import type { AuditedCompaction, CompactionAudit } from "../types";
import { type BuiltSpan, TranscriptBuilder } from "./build";
import type { CorpusCase, RecordedCase } from "./corpus-types";

export function runCase(corpusCase: CorpusCase): CompactionAudit {
  const builder = new TranscriptBuilder();
  const spans: BuiltSpan[] = corpusCase.spans.map((span, index) => {
    for (const turn of span.turns) builder.addTurn(turn);
    return builder.compact(`c${index + 1}`, span.summary, span.status);
  });
  const current = spans[spans.length - 1] as BuiltSpan;
  const previous = spans[spans.length - 2];
  const before = spans.slice(0, -1).flatMap((span) => span.entries);
  return auditCompaction({
    session_id: "corpus",
    entries: current.entries,
    compaction: current.compaction,
    previous,
    pinned_entry_ids: corpusCase.pinned ?? [],
    pinned_entries: before,
  });
}

/** The span of a recorded session: everything before its (last) compaction entry. */
export function runRecorded(recorded: RecordedCase): CompactionAudit {
  const index = recorded.entries.findLastIndex((entry) => compactionOf(entry) !== undefined);
  const entry = recorded.entries[index] as Entry;
  const compaction: AuditedCompaction = {
    item: compactionOf(entry) as NonNullable<ReturnType<typeof compactionOf>>,
    entry_id: entry.message.id,
  };
  return auditCompaction({
    session_id: "recorded",
    entries: recorded.entries.slice(0, index),
    compaction,
    pinned_entry_ids: [],
  });
}
