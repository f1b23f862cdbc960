// Table tests for docs/ledger.md §3, following the ACP RFD preview checklist: lifecycle
// ends, chunk ordering, first-seen chunks, replacement and clearing, completion without a
// summary, chunks after terminal, partial output, vendor statuses, corrections.
import { describe, expect, it } from "vitest";
import type { CompactionChunkFrame, ContentBlock } from "./acp-update";
import {
  applyCompactionChunk,
  applyCompactionUpdate,
  type CompactionSnapshot,
  type CompactionState,
  closeCompactionByDaemon,
  DAEMON_CLOSE_ERROR,
  isOpenCompaction,
} from "./compaction-intake";
import { SUMMARY_MAX_BYTES } from "./redact-summary";

type Frame =
  | { update: { status: string; summary?: ContentBlock[] | null; error?: string | null } }
  | { chunk: string };

const ID = "cmp-1";

/** Folds frames for one id; returns each frame's snapshot (or null) and the end state. */
function run(frames: Frame[]): {
  snapshots: (CompactionSnapshot | null)[];
  state: CompactionState;
} {
  let state: CompactionState | undefined;
  const snapshots: (CompactionSnapshot | null)[] = [];
  for (const frame of frames) {
    const step =
      "chunk" in frame
        ? applyCompactionChunk(state, {
            sessionUpdate: "compaction_summary_chunk",
            compactionId: ID,
            content: { type: "text", text: frame.chunk },
          } satisfies CompactionChunkFrame)
        : applyCompactionUpdate(state, {
            sessionUpdate: "compaction_update",
            compactionId: ID,
            ...frame.update,
          });
    state = step.state;
    snapshots.push(step.snapshot ?? null);
  }
  if (state === undefined) throw new Error("no frames");
  return { snapshots, state };
}

const snap = (fields: Omit<CompactionSnapshot, "compaction_id">): CompactionSnapshot => ({
  compaction_id: ID,
  ...fields,
});

describe("compaction intake (docs/ledger.md §3)", () => {
  it.each(["completed", "failed", "cancelled"])(
    "when a compaction ends %s, then that first terminal row carries terminal: true",
    (status) => {
      const { snapshots, state } = run([
        { update: { status: "in_progress" } },
        { update: { status } },
      ]);
      expect(snapshots).toEqual([
        snap({ status: "in_progress" }),
        snap({ status, terminal: true }),
      ]);
      expect(isOpenCompaction(state)).toBe(false);
    },
  );

  it.each<[string, Frame[], (CompactionSnapshot | null)[]]>([
    [
      "first seen by a chunk, it is created in progress and the chunk stays hidden",
      [{ chunk: "Hel" }],
      [snap({ status: "in_progress" })],
    ],
    [
      "chunks arrive in order, they append in receive order",
      [{ chunk: "A" }, { chunk: "B" }, { chunk: "C" }, { update: { status: "completed" } }],
      [
        snap({ status: "in_progress" }),
        null,
        null,
        snap({ status: "completed", summary: "ABC", terminal: true }),
      ],
    ],
    [
      "a concrete summary follows chunks, it replaces them and later chunks append to it",
      [
        { chunk: "draft" },
        { update: { status: "completed", summary: [{ type: "text", text: "Final" }] } },
        { chunk: " + late" },
      ],
      [
        snap({ status: "in_progress" }),
        snap({ status: "completed", summary: "Final", terminal: true }),
        snap({ status: "completed", summary: "Final + late" }),
      ],
    ],
    [
      "summary is null, it clears",
      [
        { update: { status: "completed", summary: [{ type: "text", text: "S" }] } },
        { update: { status: "completed", summary: null } },
      ],
      [snap({ status: "completed", summary: "S", terminal: true }), snap({ status: "completed" })],
    ],
    [
      "summary is [], it clears",
      [
        { update: { status: "completed", summary: [{ type: "text", text: "S" }] } },
        { update: { status: "completed", summary: [] } },
      ],
      [snap({ status: "completed", summary: "S", terminal: true }), snap({ status: "completed" })],
    ],
    [
      "summary and error are omitted, they are kept",
      [
        { update: { status: "failed", summary: [{ type: "text", text: "S" }], error: "boom" } },
        { update: { status: "cancelled" } },
      ],
      [
        snap({ status: "failed", summary: "S", error: "boom", terminal: true }),
        snap({ status: "cancelled", summary: "S", error: "boom" }),
      ],
    ],
    [
      "error is null, it clears",
      [
        { update: { status: "failed", error: "boom" } },
        { update: { status: "failed", error: null } },
      ],
      [snap({ status: "failed", error: "boom", terminal: true }), snap({ status: "failed" })],
    ],
    [
      "it completes without a summary, the row has no summary",
      [{ update: { status: "in_progress" } }, { update: { status: "completed" } }],
      [snap({ status: "in_progress" }), snap({ status: "completed", terminal: true })],
    ],
    [
      "chunks arrive after the terminal status, they still append and are shown",
      [{ update: { status: "completed" } }, { chunk: "late" }, { chunk: " text" }],
      [
        snap({ status: "completed", terminal: true }),
        snap({ status: "completed", summary: "late" }),
        snap({ status: "completed", summary: "late text" }),
      ],
    ],
    [
      "it fails after partial output, the partial summary is shown with the error",
      [{ chunk: "partial" }, { update: { status: "failed", error: "model overloaded" } }],
      [
        snap({ status: "in_progress" }),
        snap({ status: "failed", summary: "partial", error: "model overloaded", terminal: true }),
      ],
    ],
    [
      "it is cancelled after partial output, the partial summary is shown",
      [{ chunk: "partial" }, { update: { status: "cancelled" } }],
      [
        snap({ status: "in_progress" }),
        snap({ status: "cancelled", summary: "partial", terminal: true }),
      ],
    ],
    [
      "a vendor status arrives, it is kept verbatim, hides the chunk summary until terminal",
      [
        { chunk: "so far" },
        { update: { status: "_paused" } },
        { update: { status: "compaction_paused" } },
        { update: { status: "completed" } },
      ],
      [
        snap({ status: "in_progress" }),
        snap({ status: "_paused" }),
        snap({ status: "compaction_paused" }),
        snap({ status: "completed", summary: "so far", terminal: true }),
      ],
    ],
    [
      "a correction follows the terminal status, it appends a row without terminal",
      [
        { update: { status: "completed", error: "transient" } },
        { update: { status: "failed", error: null } },
        { update: { status: "completed" } },
      ],
      [
        snap({ status: "completed", error: "transient", terminal: true }),
        snap({ status: "failed" }),
        snap({ status: "completed" }),
      ],
    ],
    [
      "a frame changes nothing shown, no row is written",
      [
        { update: { status: "in_progress" } },
        { update: { status: "in_progress" } },
        { chunk: "hidden" },
      ],
      [snap({ status: "in_progress" }), null, null],
    ],
    [
      "a summary is replaced while in progress, nothing is shown until the status moves on",
      [
        { update: { status: "in_progress", summary: [{ type: "text", text: "X" }] } },
        { update: { status: "completed" } },
      ],
      [
        snap({ status: "in_progress" }),
        snap({ status: "completed", summary: "X", terminal: true }),
      ],
    ],
  ])("when %s", (_name, frames, expected) => {
    expect(run(frames).snapshots).toEqual(expected);
  });

  it("when a vendor status is the latest, then the compaction is still open", () => {
    expect(isOpenCompaction(run([{ update: { status: "_paused" } }]).state)).toBe(true);
  });

  it("when the frame carries _meta, then it is kept in the row and not in the shown state", () => {
    const step = applyCompactionUpdate(undefined, {
      sessionUpdate: "compaction_update",
      compactionId: ID,
      status: "in_progress",
      _meta: { vendor: { trigger: "auto" } },
    });
    expect(step.snapshot).toEqual({
      compaction_id: ID,
      status: "in_progress",
      _meta: { vendor: { trigger: "auto" } },
    });
    expect(step.state.shown).toEqual({ status: "in_progress" });
  });

  it("when the summary holds a secret and is huge, then the row is redacted, then capped", () => {
    const text = `token=abc123 ${"é".repeat(SUMMARY_MAX_BYTES)}`;
    const { snapshots } = run([
      { update: { status: "completed", summary: [{ type: "text", text }] } },
    ]);
    const summary = snapshots[0]?.summary ?? "";
    expect(summary.startsWith("token=[redacted] é")).toBe(true);
    expect(summary.endsWith(" [summary truncated]")).toBe(true);
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
    expect(Buffer.byteLength(summary)).toBeGreaterThanOrEqual(SUMMARY_MAX_BYTES - 1);
  });

  it("when the daemon closes an open compaction, then it is cancelled with its error, terminal, by the daemon", () => {
    const { state } = run([{ chunk: "partial" }]);
    expect(closeCompactionByDaemon(state).snapshot).toEqual({
      compaction_id: ID,
      status: "cancelled",
      summary: "partial",
      error: DAEMON_CLOSE_ERROR,
      terminal: true,
      source: "daemon",
    });
  });

  it("when the daemon closes one that was terminal once and reopened, then its row has no second terminal", () => {
    const { state } = run([
      { update: { status: "completed" } },
      { update: { status: "in_progress" } },
    ]);
    const snapshot = closeCompactionByDaemon(state).snapshot;
    expect(snapshot?.terminal).toBeUndefined();
    expect(snapshot?.source).toBe("daemon");
  });
});
