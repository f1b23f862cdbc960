// What one compaction does, as a list of steps, decided up front from the armed scenario. The
// runner (compaction-runner.ts) plays the steps onto the wire, as ACP compaction updates or,
// for a client without the capability, as a "Compact conversation" tool call.
import { forgetfulSummary, keepPinnedSummary, lossySummary } from "./audit-summaries";
import type { ConversationState } from "./conversation-state";
import type { ArmedCompaction } from "./scenarios";
import { bigSummary, draftSummary, summarizeConversation, summaryChunks } from "./summary";

export type CompactionStep =
  /** A compaction_update. `summary`: absent = keep, null = clear, text blocks = replace. */
  | { type: "status"; status: string; summary?: string[] | null; error?: string }
  | { type: "chunk"; text: string }
  /** A pause scaled by `--speed`. */
  | { type: "beat"; baseMs: number }
  /** A pause of exactly this long, whatever the speed (`slow`). */
  | { type: "hold"; ms: number }
  /** One compaction_update without `status`, written raw (`bad-frame`). */
  | { type: "bad-frame" }
  /** The process exits here (`crash`). */
  | { type: "crash" };

export const FAILURE_ERROR = "Compaction failed: context too small";
export const CORRECTION_ERROR = "Compaction rolled back: the summary failed validation";
export const LATE_CHUNK_TEXT =
  "\n\n_Late note: one more detail arrived after the compaction had completed._";

const CHUNK_BEAT_MS = 900;

function streamed(summary: string): CompactionStep[] {
  return summaryChunks(summary).flatMap((text): CompactionStep[] => [
    { type: "beat", baseMs: CHUNK_BEAT_MS },
    { type: "chunk", text },
  ]);
}

/** The plain Claude-adapter shape: in_progress → chunks → completed with the whole summary. */
function ordinary(summary: string): CompactionStep[] {
  return [
    { type: "status", status: "in_progress" },
    ...streamed(summary),
    { type: "beat", baseMs: CHUNK_BEAT_MS },
    { type: "status", status: "completed", summary: [summary] },
  ];
}

/**
 * Whether the agent reports a fresh context reading right after this compaction completes.
 * The Codex adapter does not: its context stays unreported until the next turn, which is
 * exactly the "Context usage unknown" state Tideline exists to show honestly.
 */
export function reportsUsageAfter(armed: ArmedCompaction | null): boolean {
  return armed?.name !== "codex";
}

export function compactionScript(
  armed: ArmedCompaction | null,
  state: ConversationState,
  focus: string | null,
): CompactionStep[] {
  const summary = summarizeConversation(state, focus);
  switch (armed?.name) {
    case undefined:
      return ordinary(summary);
    case "fail":
      return [
        { type: "status", status: "in_progress" },
        { type: "beat", baseMs: 1_500 },
        { type: "status", status: "failed", error: FAILURE_ERROR },
      ];
    case "paused":
      return [
        { type: "status", status: "in_progress" },
        ...streamed(summary),
        { type: "beat", baseMs: CHUNK_BEAT_MS },
        { type: "status", status: "_paused" },
        { type: "beat", baseMs: 2_000 },
        { type: "status", status: "completed", summary: [summary] },
      ];
    case "slow":
      return [
        { type: "status", status: "in_progress" },
        { type: "hold", ms: (armed.seconds ?? 0) * 1_000 },
        ...streamed(summary),
        { type: "status", status: "completed", summary: [summary] },
      ];
    case "codex":
      return [
        { type: "status", status: "in_progress" },
        { type: "beat", baseMs: 2_500 },
        { type: "status", status: "completed" },
      ];
    case "correct":
      return [
        ...ordinary(summary),
        { type: "beat", baseMs: 1_200 },
        { type: "status", status: "failed", error: CORRECTION_ERROR },
      ];
    case "late-chunk":
      return [
        ...ordinary(summary),
        { type: "beat", baseMs: 600 },
        { type: "chunk", text: LATE_CHUNK_TEXT },
      ];
    case "replace":
      return [
        { type: "status", status: "in_progress" },
        ...streamed(draftSummary(state)),
        { type: "beat", baseMs: CHUNK_BEAT_MS },
        { type: "status", status: "completed", summary: [summary] },
      ];
    case "clear":
      return [
        { type: "status", status: "in_progress" },
        ...streamed(summary),
        { type: "beat", baseMs: CHUNK_BEAT_MS },
        { type: "status", status: "completed", summary: [] },
      ];
    case "big":
      return ordinary(bigSummary(state, focus));
    case "crash": {
      const [first = summary] = summaryChunks(summary);
      return [
        { type: "status", status: "in_progress" },
        { type: "beat", baseMs: CHUNK_BEAT_MS },
        { type: "chunk", text: first },
        { type: "beat", baseMs: CHUNK_BEAT_MS },
        { type: "crash" },
      ];
    }
    case "lossy":
      return ordinary(lossySummary(state));
    case "keep-pinned":
      return ordinary(keepPinnedSummary(state));
    case "forgetful":
      return ordinary(forgetfulSummary(state));
    case "bad-frame":
      return [
        { type: "status", status: "in_progress" },
        { type: "beat", baseMs: CHUNK_BEAT_MS },
        { type: "bad-frame" },
        ...streamed(summary),
        { type: "status", status: "completed", summary: [summary] },
      ];
  }
}

export type CompactionOutcome = { status: string; summary: string | null; error: string | null };

/**
 * Folds steps the way a client applies them (chunks append, a summary replaces or clears,
 * the latest status wins), giving the state the compaction ends in and is remembered as.
 */
export function foldSteps(steps: readonly CompactionStep[]): CompactionOutcome {
  let status = "in_progress";
  let summary: string | null = null;
  let error: string | null = null;
  for (const step of steps) {
    if (step.type === "chunk") summary = (summary ?? "") + step.text;
    if (step.type !== "status") continue;
    status = step.status;
    if (step.summary !== undefined) {
      summary = step.summary === null || step.summary.length === 0 ? null : step.summary.join("");
    }
    if (step.error !== undefined) error = step.error;
  }
  return { status, summary, error };
}

export function isTerminalStatus(status: string): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}
