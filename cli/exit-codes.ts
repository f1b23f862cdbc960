// The CLI's exit codes (documented in `tideline --help` and the README). Scripts branch
// on them, so each meaning keeps its number.
export const EXIT = {
  /** Done; for `session compact`, the compaction completed. */
  ok: 0,
  /** Something went wrong: daemon unreachable, session not found, unexpected answer. */
  error: 1,
  /** Bad arguments or options. */
  usage: 2,
  /** The daemon refused: session_busy, compaction_unsupported, session_not_promptable. */
  refused: 3,
  /** `session compact`: the compaction failed or was cancelled. */
  compactionFailed: 4,
  /** `session compact`: the turn ended without a finished compaction reported. */
  compactionUnconfirmed: 5,
  /** `session audit`: the summary does not carry a message the person pinned. */
  pinnedDropped: 6,
} as const;

export const REFUSAL_CODES = new Set([
  "session_busy",
  "compaction_unsupported",
  "session_not_promptable",
]);

export const EXIT_CODES_HELP = `
Exit codes:
  0  success (session compact: the compaction completed)
  1  error (daemon unreachable, session not found, unexpected answer)
  2  bad arguments
  3  refused by the daemon (session_busy, compaction_unsupported, session_not_promptable)
  4  session compact: the compaction failed or was cancelled
  5  session compact: the turn ended without a finished compaction reported
  6  session audit: the compaction's summary dropped a pinned message`;
