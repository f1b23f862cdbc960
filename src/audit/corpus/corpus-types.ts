// A labelled compaction: the spans of a session up to it, and what a careful reader of the
// transcript and the summary marks kept or dropped. Labels were written by reading, before
// the module ran; keys follow the audit's (`instruction:u2`, `path:src/auth.ts`).
import type { Entry } from "../../contract/transcript";
import type { AuditedCompaction } from "../types";
import type { CorpusTurn } from "./build";

export type Label = "kept" | "dropped";

type CorpusSpan = {
  turns: CorpusTurn[];
  summary: string | null;
  status?: string;
};

export type CorpusCase = {
  name: string;
  /** The spans in order; the last one's compaction is the one audited. */
  spans: CorpusSpan[];
  pinned?: string[];
  labels: Record<string, Label>;
};

/** A recorded real session: its transcript as the daemon served it. */
export type RecordedCase = {
  name: string;
  entries: Entry[];
  labels: Record<string, Label>;
  compaction?: AuditedCompaction;
};
