import { describe, expect, it } from "vitest";
import { contextAfterOf } from "./context-after";
import { UsageTurns } from "./wire";

const at = (second: number) => `2026-11-30T08:00:${String(second).padStart(2, "0")}.000Z`;
const turn = (sequence: number, used: number, second: number) => ({
  turn_id: `t${sequence}`,
  sequence,
  usage: { context_used: used, context_size: 1000, timestamp: at(second) },
});
const marker = (id: string, sequence: number, second: number, status = "completed") => ({
  turn_id: "t",
  sequence,
  at: at(second),
  compaction_id: id,
  trigger: "requested",
  status,
});

describe("the CLI's after figure", () => {
  it("when the daemon sends context_after, then it is used as sent; null means none", () => {
    const usage = UsageTurns.parse({
      turns: [turn(9, 643, 9)],
      compactions: [
        { ...marker("c1", 4, 2), context_after: { used: 145, size: 1000, sequence: 5 } },
        { ...marker("c2", 8, 6), context_after: null },
      ],
    });
    const [first, second] = usage.compactions;
    expect(first && contextAfterOf(first, usage)).toEqual({ used: 145, size: 1000 });
    expect(second && contextAfterOf(second, usage)).toBeUndefined();
  });

  it("when a CompozyOS daemon sends none, then two compactions in a row each get the first reading after it, never the next one's", () => {
    // Turn 1 compacts (ends at 2 s) and reports 145 at 3 s; turn 6 compacts (ends 6 s) and
    // reports 29 at 7 s; turn 9 reports 643 at 9 s.
    const usage = UsageTurns.parse({
      turns: [turn(1, 145, 3), turn(6, 29, 7), turn(9, 643, 9)],
      compactions: [marker("c1", 4, 2), marker("c2", 8, 6)],
    });
    const [first, second] = usage.compactions;
    expect(first && contextAfterOf(first, usage)?.used).toBe(145);
    expect(second && contextAfterOf(second, usage)?.used).toBe(29);
    const running = UsageTurns.parse({
      turns: [turn(1, 145, 3)],
      compactions: [marker("c1", 4, 2), marker("c2", 8, 6, "in_progress")],
    });
    expect(running.compactions[0] && contextAfterOf(running.compactions[0], running)?.used).toBe(
      145,
    );
    expect(
      running.compactions[1] && contextAfterOf(running.compactions[1], running),
    ).toBeUndefined();
  });

  it("when timestamps are missing or garbage, then there is no figure rather than a guess", () => {
    const usage = UsageTurns.parse({
      turns: [{ turn_id: "t1", sequence: 1, usage: { context_used: 5, timestamp: "soon" } }],
      compactions: [{ ...marker("c1", 0, 0), at: "yesterday" }],
    });
    expect(usage.compactions[0] && contextAfterOf(usage.compactions[0], usage)).toBeUndefined();
  });
});
