// The compaction state machine of docs/ledger.md §3, as pure functions: given the state
// kept for one `compactionId` and one frame, the next state and the rows the frame
// causes. The recorder persists the state and appends the rows in one transaction; the
// fired event needs ledger lookups, so here we only say that the id was first seen.
import { isTerminalCompactionStatus } from "../../src/contract/transcript";
import type { CompactionChunkFrame, CompactionUpdateFrame, ContentBlock } from "./acp-update";
import { exposeSummary } from "./redact-summary";

/** What the newest snapshot row of an id showed (the baseline for "changed"). */
type ShownCompaction = { status: string; summary?: string; error?: string };

export type CompactionState = {
  compactionId: string;
  status: string;
  /**
   * The accumulated summary, exposed only at a terminal status: chunks are never shown one
   * by one, and a vendor status such as `_paused` is still in progress.
   */
  blocks: ContentBlock[];
  error: string | null;
  shown: ShownCompaction;
  /** Set by the first terminal status; fixes `ended_at` and the context boundary. */
  terminalSeen: boolean;
};

/** The content of a `compaction` ledger row. */
export type CompactionSnapshot = {
  compaction_id: string;
  status: string;
  summary?: string;
  error?: string;
  terminal?: true;
  source?: "daemon";
  /** The frame's `_meta`, kept in the raw record only; never shown in the transcript. */
  _meta?: Record<string, unknown>;
};

type CompactionChunkRow = { compaction_id: string; content: ContentBlock };

export type CompactionStep = {
  state: CompactionState;
  firstSeen: boolean;
  /** Content of the `compaction.chunk` row, for a chunk frame. */
  chunk?: CompactionChunkRow;
  /** Content of the `compaction` row, when status, error or exposed summary changed. */
  snapshot?: CompactionSnapshot;
};

export const DAEMON_CLOSE_ERROR = "agent exited before the compaction finished";

function created(compactionId: string): CompactionState {
  return {
    compactionId,
    status: "in_progress",
    blocks: [],
    error: null,
    // An id nobody has shown yet: any state differs from it, so the first frame always
    // writes the row that fixes the compaction's timeline position (§3.1).
    shown: { status: "" },
    terminalSeen: false,
  };
}

function shownOf(state: CompactionState): ShownCompaction {
  const shown: ShownCompaction = { status: state.status };
  if (isTerminalCompactionStatus(state.status)) {
    const summary = exposeSummary(state.blocks);
    if (summary !== undefined) shown.summary = summary;
  }
  if (state.error !== null) shown.error = state.error;
  return shown;
}

function sameShown(a: ShownCompaction, b: ShownCompaction): boolean {
  return a.status === b.status && a.summary === b.summary && a.error === b.error;
}

/** Applies the snapshot rule (§3.5, §3.7) to a state whose fields were just changed. */
function settle(
  previous: CompactionState,
  next: Omit<CompactionState, "shown" | "terminalSeen">,
  extra: { source?: "daemon"; meta?: Record<string, unknown> },
): { state: CompactionState; snapshot?: CompactionSnapshot } {
  const draft: CompactionState = { ...next, shown: previous.shown, terminalSeen: false };
  const shown = shownOf(draft);
  const firstTerminal = !previous.terminalSeen && isTerminalCompactionStatus(next.status);
  const state: CompactionState = {
    ...next,
    shown,
    terminalSeen: previous.terminalSeen || firstTerminal,
  };
  if (sameShown(shown, previous.shown)) return { state: { ...state, shown: previous.shown } };
  const snapshot: CompactionSnapshot = { compaction_id: next.compactionId, ...shown };
  if (firstTerminal) snapshot.terminal = true;
  if (extra.source !== undefined) snapshot.source = extra.source;
  if (extra.meta !== undefined) snapshot._meta = extra.meta;
  return { state, snapshot };
}

export function applyCompactionUpdate(
  current: CompactionState | undefined,
  frame: CompactionUpdateFrame,
): CompactionStep {
  const previous = current ?? created(frame.compactionId);
  // Patch semantics (§3.2): omitted keeps, null clears, a value replaces; `[]` clears too.
  let blocks = previous.blocks;
  if (frame.summary === null) blocks = [];
  else if (frame.summary !== undefined) blocks = [...frame.summary];
  let error = previous.error;
  if (frame.error === null) error = null;
  else if (frame.error !== undefined) error = frame.error;
  const extra = frame._meta ? { meta: frame._meta } : {};
  const { state, snapshot } = settle(
    previous,
    { compactionId: previous.compactionId, status: frame.status, blocks, error },
    extra,
  );
  return snapshot === undefined
    ? { state, firstSeen: current === undefined }
    : { state, firstSeen: current === undefined, snapshot };
}

export function applyCompactionChunk(
  current: CompactionState | undefined,
  frame: CompactionChunkFrame,
): CompactionStep {
  const previous = current ?? created(frame.compactionId);
  const chunk: CompactionChunkRow = { compaction_id: frame.compactionId, content: frame.content };
  // Chunks append in receive order, after a terminal status too (§3.3).
  const { state, snapshot } = settle(
    previous,
    { ...previous, blocks: [...previous.blocks, frame.content] },
    {},
  );
  const firstSeen = current === undefined;
  return snapshot === undefined
    ? { state, firstSeen, chunk }
    : { state, firstSeen, chunk, snapshot };
}

/** Not finished: `in_progress` or any vendor status such as `_paused` (§3.4). */
export function isOpenCompaction(state: CompactionState): boolean {
  return !isTerminalCompactionStatus(state.status);
}

/**
 * The daemon's own close of a compaction the agent left open (§3.10). Whatever summary
 * had accumulated becomes visible, as for any cancellation after partial output.
 */
export function closeCompactionByDaemon(current: CompactionState): CompactionStep {
  const { state, snapshot } = settle(
    current,
    { ...current, status: "cancelled", error: DAEMON_CLOSE_ERROR },
    { source: "daemon" },
  );
  return snapshot === undefined
    ? { state, firstSeen: false }
    : { state, firstSeen: false, snapshot };
}
