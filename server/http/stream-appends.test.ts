import { describe, expect, it } from "vitest";
import type { DaemonEntry, DaemonMessage } from "../../src/contract/transcript";
import {
  appendData,
  createAppendState,
  createPlanner,
  growthOf,
  MAX_BASES,
  rememberEntries,
  sameJson,
} from "./stream-appends";

function entry(sequence: number, parts: DaemonMessage["parts"], start = 5): DaemonEntry {
  return { start_sequence: start, sequence, message: { id: "m", role: "assistant", parts } };
}

const text = (value: string) => ({ type: "text" as const, id: "m-0", text: value });

function tool(output: unknown, state: "input-available" | "output-available" = "input-available") {
  return {
    type: "tool-execute" as const,
    toolCallId: "t1",
    state,
    input: { command: "ls" },
    output,
  };
}

describe("growthOf", () => {
  it("when the last text part only grew, then its new text at its old length", () => {
    expect(growthOf(entry(1, [text("Hello")]), entry(2, [text("Hello world")]))).toEqual([
      { part: 0, path: ["text"], offset: 5, text: " world" },
    ]);
  });

  it("when a reasoning part and then a text part grew, then each part's growth", () => {
    const base = entry(1, [{ type: "reasoning", id: "r", text: "a" }, text("b")]);
    const next = entry(3, [{ type: "reasoning", id: "r", text: "a1" }, text("b2")]);
    expect(growthOf(base, next)).toEqual([
      { part: 0, path: ["text"], offset: 1, text: "1" },
      { part: 1, path: ["text"], offset: 1, text: "2" },
    ]);
  });

  it("when a tool's terminal output grew, then the path to that string", () => {
    const out = (o: string) => ({ terminals: { "term-1": { output: o, truncated: false } } });
    expect(growthOf(entry(1, [tool(out("a\n"))]), entry(2, [tool(out("a\nb\n"))]))).toEqual([
      { part: 0, path: ["output", "terminals", "term-1", "output"], offset: 2, text: "b\n" },
    ]);
  });

  it("when anything else changed, then no growth: the whole entry goes", () => {
    const base = entry(1, [text("Hello")]);
    const cases: [string, DaemonEntry][] = [
      ["a new part", entry(2, [text("Hello"), { type: "reasoning", id: "r", text: "x" }])],
      ["text rewritten", entry(2, [text("Help")])],
      ["text rewritten and longer", entry(2, [text("Jello world")])],
      ["text shortened", entry(2, [text("Hell")])],
      ["a field changed in place", entry(2, [{ ...text("Hello!"), state: "done" }])],
      ["the part id changed", entry(2, [{ ...text("Hello!"), id: "other" }])],
      ["the kind changed", entry(2, [{ type: "reasoning", id: "m-0", text: "Hello!" }])],
      ["unchanged content", entry(2, [text("Hello")])],
      ["an older sequence", entry(1, [text("Hello!")])],
      ["another entry", entry(2, [text("Hello!")], 6)],
    ];
    for (const [what, next] of cases) expect(growthOf(base, next), what).toBeUndefined();
    const withMeta = entry(2, [text("Hello!")]);
    withMeta.message.metadata = { turn_id: "t" };
    expect(growthOf(base, withMeta), "metadata").toBeUndefined();
  });

  it("when a tool changed state as well, or a string outside its output grew, then no growth", () => {
    const base = entry(1, [tool({ raw_output: "a" })]);
    expect(growthOf(base, entry(2, [tool({ raw_output: "ab" }, "output-available")]))).toBe(
      undefined,
    );
    const titled = entry(1, [{ ...tool({}), title: "Run" }]);
    expect(growthOf(titled, entry(2, [{ ...tool({}), title: "Run ls" }]))).toBeUndefined();
    // Two strings grew in one part: not one append.
    const two = (a: string, b: string) => entry(1, [tool({ content: a, raw_output: b })]);
    const next = two("ax", "bx");
    next.sequence = 2;
    expect(growthOf(two("a", "b"), next)).toBeUndefined();
    // A terminal window that slid (older output dropped) did not only grow.
    const slid = (o: string) => ({ terminals: { t: { output: o, truncated: true } } });
    expect(growthOf(entry(1, [tool(slid("abc"))]), entry(2, [tool(slid("bcd"))]))).toBe(undefined);
  });

  it("when key order differs, then the JSON is not the same", () => {
    expect(sameJson({ a: 1, b: 2 }, { a: 1, b: 2 })).toBe(true);
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson([1, { a: null }], [1, { a: null }])).toBe(true);
    expect(sameJson([1], [1, 2])).toBe(false);
  });
});

describe("appendData", () => {
  it("when the path is the default, then it is left out; the cursor only when given", () => {
    const next = entry(9, [text("ab")]);
    expect(appendData(next, { part: 0, path: ["text"], offset: 1, text: "b" })).toEqual({
      start_sequence: 5,
      sequence: 9,
      part: 0,
      offset: 1,
      text: "b",
    });
    expect(
      JSON.stringify(
        appendData(next, { part: 2, path: ["output", "x"], offset: 0, text: "z" }, 12),
      ),
    ).toBe(
      '{"start_sequence":5,"sequence":9,"part":2,"path":["output","x"],"offset":0,"text":"z","cursor":12}',
    );
  });
});

describe("the planner", () => {
  it("when subscribers hold the same versions, then they share one plan; one without a base gets the whole entry", () => {
    const base = entry(1, [text("a")]);
    const next = entry(2, [text("ab")]);
    const plan = createPlanner([next]);
    const one = createAppendState();
    const two = createAppendState();
    const fresh = createAppendState();
    rememberEntries(one, [base]);
    rememberEntries(two, [base]);
    const a = plan(one);
    const b = plan(two);
    const c = plan(fresh);
    expect(a.signature).toBe(b.signature);
    expect(a.plan).toMatchObject({ whole: [], appendedChars: 1, comparedChars: 1 });
    expect(c.signature).not.toBe(a.signature);
    expect(c.plan.whole).toEqual([next]);
  });

  it("when more entries than it keeps are sent, then the oldest are forgotten", () => {
    const state = createAppendState();
    rememberEntries(
      state,
      Array.from({ length: MAX_BASES + 5 }, (_, i) => entry(i + 1, [text("x")], i + 1)),
    );
    expect(state.bases.size).toBe(MAX_BASES);
    expect(state.bases.has(1)).toBe(false);
    expect(state.bases.has(MAX_BASES + 5)).toBe(true);
  });
});
