import { describe, expect, it } from "vitest";
import {
  type CompactionStep,
  compactionScript,
  FAILURE_ERROR,
  foldSteps,
  isTerminalStatus,
} from "./compaction-script";
import { createConversation } from "./conversation-state";
import { COMPACTION_SCENARIOS } from "./scenarios";
import { summaryChunks } from "./summary";

const state = createConversation("demo-1", "/work");
state.memory.goal = "Ship the meter";

function statuses(steps: readonly CompactionStep[]): string[] {
  return steps.flatMap((step) => (step.type === "status" ? [step.status] : []));
}

describe("compactionScript", () => {
  it("when nothing is armed, then it streams the summary in two or more chunks and completes with all of it", () => {
    const steps = compactionScript(null, state, null);
    expect(statuses(steps)).toEqual(["in_progress", "completed"]);
    expect(steps.filter((step) => step.type === "chunk").length).toBeGreaterThanOrEqual(2);
    const outcome = foldSteps(steps);
    expect(outcome.status).toBe("completed");
    expect(outcome.summary).toContain("**Goal:** Ship the meter");
  });

  it.each(COMPACTION_SCENARIOS)("when %s is armed, then its script starts in_progress", (name) => {
    const steps = compactionScript({ name, seconds: 1 }, state, null);
    expect(steps[0]).toEqual({ type: "status", status: "in_progress" });
  });

  it("when the scripts are folded, then each ends the way the spec's table says", () => {
    const outcome = (name: (typeof COMPACTION_SCENARIOS)[number]) =>
      foldSteps(compactionScript({ name, seconds: 0 }, state, null));
    expect(outcome("fail")).toEqual({ status: "failed", summary: null, error: FAILURE_ERROR });
    expect(outcome("codex")).toEqual({ status: "completed", summary: null, error: null });
    expect(outcome("clear")).toMatchObject({ status: "completed", summary: null });
    expect(outcome("correct").status).toBe("failed");
    expect(outcome("crash").status).toBe("in_progress");
    expect(isTerminalStatus("_paused")).toBe(false);
  });
});

describe("summaryChunks", () => {
  it("when a summary is split, then the chunks join back to exactly the summary", () => {
    const summary = "## A\n\nintro\n### B\n- b\n### C\n- c";
    const chunks = summaryChunks(summary);
    expect(chunks.length).toBe(3);
    expect(chunks.join("")).toBe(summary);
    expect(summaryChunks("one line")).toHaveLength(2);
  });
});
