import { describe, expect, it } from "vitest";
import { type Entry, speakerOf } from "../../contract/transcript";
import {
  foldStateLines,
  indexOfStartSequence,
  interruptionReasons,
  showsSpeaker,
} from "./timeline-view";

function entry(start: number, role: Entry["message"]["role"], status?: string): Entry {
  const parts: Entry["message"]["parts"] = status
    ? [
        {
          type: "data-compozy-compaction",
          id: `c${start}`,
          data: {
            kind: "compaction",
            compaction_id: `c${start}`,
            status,
            started_at: "2026-11-30T08:00:00Z",
          },
        },
      ]
    : [{ type: "text", id: "t", text: "x" }];
  return { start_sequence: start, sequence: start, message: { id: `m${start}`, role, parts } };
}

describe("timeline view", () => {
  it("labels the first of consecutive agent entries only", () => {
    const entries = [
      entry(1, "user"),
      entry(2, "assistant"),
      entry(3, "assistant"),
      entry(4, "system"),
      entry(5, "assistant"),
    ];
    expect(entries.map((_, index) => showsSpeaker(entries, index))).toEqual([
      true,
      true,
      false,
      true,
      true,
    ]);
  });
});

describe("markers in the assistant role (CompozyOS's shape)", () => {
  it("when a state line or a compaction comes as an assistant message, then it is nobody's words: no label, and the next reply is labelled", () => {
    const marker = (start: number, type: string): Entry => ({
      start_sequence: start,
      sequence: start,
      message: {
        id: `e${start}`,
        role: "assistant",
        parts:
          type === "data-compozy-event"
            ? [{ type, data: { type: "session.state", state: "active" } }]
            : [
                {
                  type: "data-compozy-compaction",
                  id: "c1",
                  data: {
                    kind: "compaction",
                    compaction_id: "c1",
                    status: "completed",
                    started_at: "2026-11-30T08:00:00Z",
                  },
                },
              ],
      },
    });
    const entries = [
      entry(1, "assistant"),
      marker(2, "data-compozy-event"),
      entry(3, "assistant"),
      marker(4, "data-compozy-compaction"),
      entry(5, "assistant"),
    ];
    expect(entries.map((item) => speakerOf(item.message))).toEqual([
      "assistant",
      "system",
      "assistant",
      "system",
      "assistant",
    ]);
    expect(entries.map((_, index) => showsSpeaker(entries, index))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
  });
});

describe("indexOfStartSequence", () => {
  it("finds an entry by its start sequence, or says -1", () => {
    const entries = [entry(2, "user"), entry(5, "assistant"), entry(9, "assistant")];
    expect(entries.map((item) => indexOfStartSequence(entries, item.start_sequence))).toEqual([
      0, 1, 2,
    ]);
    expect(indexOfStartSequence(entries, 1)).toBe(-1);
    expect(indexOfStartSequence(entries, 6)).toBe(-1);
    expect(indexOfStartSequence(entries, 10)).toBe(-1);
    expect(indexOfStartSequence([], 1)).toBe(-1);
  });
});

describe("why a compaction was interrupted", () => {
  function withParts(start: number, parts: Entry["message"]["parts"]): Entry {
    return {
      start_sequence: start,
      sequence: start,
      message: { id: `m${start}`, role: "system", parts },
    };
  }
  const interrupted = (id: string): Entry["message"]["parts"][number] => ({
    type: "data-compozy-compaction",
    id,
    data: {
      kind: "compaction",
      compaction_id: id,
      status: "cancelled",
      error: "agent exited before the compaction finished",
      started_at: "2026-11-30T08:00:00Z",
    },
  });
  const exit = (data: Record<string, unknown>): Entry["message"]["parts"][number] => ({
    type: "data-compozy-event",
    id: "e",
    data: { type: "agent.exited", ...data },
  });

  it("when the agent exited after it, then the reason carries the exit code or signal", () => {
    const reasons = interruptionReasons([
      withParts(1, [interrupted("a")]),
      withParts(2, [exit({ code: 3 })]),
      withParts(3, [interrupted("b")]),
      withParts(4, [exit({ code: null, signal: "SIGKILL" })]),
    ]);
    expect(reasons.get("a")).toBe("agent exited (code 3)");
    expect(reasons.get("b")).toBe("agent exited (signal SIGKILL)");
  });

  it("when no exit was recorded (yet), then there is no reason", () => {
    expect(interruptionReasons([withParts(1, [interrupted("a")])]).get("a")).toBeUndefined();
  });
});

describe("session state lines", () => {
  const state = (start: number, value: string, reason?: string): Entry => ({
    start_sequence: start,
    sequence: start,
    message: {
      id: `s${start}`,
      role: "system",
      parts: [
        {
          type: "data-compozy-event",
          id: "e",
          data: { type: "session.state", state: value, ...(reason ? { reason } : {}) },
        },
      ],
    },
  });

  it("when state lines follow each other, then they fold into one line with the newest reason", () => {
    const entries = [
      state(1, "starting"),
      state(2, "active"),
      entry(3, "user"),
      state(4, "stopping", "user asked"),
      state(5, "stopped", "daemon restarted"),
      state(6, "starting"),
    ];
    const folds = foldStateLines(entries);
    expect([...folds.folded]).toEqual([0, 3, 4]);
    expect(folds.lines.get(1)).toBe("Session starting → active");
    expect(folds.lines.get(5)).toBe("Session stopping → stopped → starting — daemon restarted");
  });

  it("when a state line stands alone, then it is left as it is", () => {
    const folds = foldStateLines([entry(1, "user"), state(2, "stopped"), entry(3, "user")]);
    expect(folds.folded.size).toBe(0);
    expect(folds.lines.size).toBe(0);
  });
});
