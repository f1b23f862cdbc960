import { describe, expect, it } from "vitest";
import type { CompactionMarkerView } from "../../api/usage-queries";
import type { Turn } from "../../contract/usage";
import {
  deriveTurnsList,
  describeMarker,
  describeTokens,
  sessionTotal,
  turnCosts,
} from "./turns-list-view";

const AT = "2026-11-30T08:00:00.000Z";

function turn(sequence: number, usage?: Partial<NonNullable<Turn["usage"]>>): Turn {
  return {
    turn_id: `t${sequence}`,
    sequence,
    ...(usage ? { usage: { timestamp: AT, ...usage } } : {}),
  };
}

function marker(sequence: number, extra: Partial<CompactionMarkerView> = {}): CompactionMarkerView {
  return {
    turn_id: "",
    sequence,
    at: AT,
    compaction_id: `c${sequence}`,
    trigger: "agent",
    status: "completed",
    ...extra,
  };
}

describe("describeTokens", () => {
  it("reads in, out and cache-read tokens, leaving out absent parts", () => {
    expect(
      describeTokens({
        timestamp: AT,
        input_tokens: 1000,
        output_tokens: 200,
        cache_read_tokens: 800,
        cache_write_tokens: 5,
      }),
    ).toBe("in 1K · out 200 · cache 800");
    expect(describeTokens({ timestamp: AT, output_tokens: 12_000 })).toBe("out 12K");
    expect(describeTokens({ timestamp: AT })).toBeUndefined();
    expect(describeTokens(undefined)).toBeUndefined();
  });
});

describe("describeMarker", () => {
  it("when a compaction failed or was cancelled, then only the reading it started from, no arrow", () => {
    expect(
      describeMarker(
        marker(5, {
          status: "failed",
          context_used: 8_200,
          context_after: { used: 8_800, sequence: 6 },
        }),
      ),
    ).toBe("The agent compacted on its own · failed · from 8.2K");
    expect(describeMarker(marker(5, { status: "cancelled", trigger: "requested" }))).toBe(
      "Compaction was requested · cancelled",
    );
  });

  it("when the CLI or a session tool requested it, then it names that caller", () => {
    const requested = marker(5, { compaction_id: "x", trigger: "requested" });
    expect(describeMarker(requested, { x: { requestedBy: "cli" } })).toBe(
      "Requested from the command line · completed",
    );
    expect(describeMarker(requested, { x: { requestedBy: "tool" } })).toBe(
      "An agent asked with its session tool · completed",
    );
    expect(describeMarker(requested, { x: { requestedBy: "web" } })).toBe(
      "You pressed Compact now · completed",
    );
  });

  it("when the person typed the command, then it says so", () => {
    expect(describeMarker(marker(5, { compaction_id: "x" }), { x: { typed: "/compress" } })).toBe(
      "You typed /compress · completed",
    );
  });

  it("names the trigger and status, with before → after when both are known", () => {
    expect(
      describeMarker(
        marker(5, { context_used: 180_000, context_after: { used: 42_000, sequence: 9 } }),
      ),
    ).toBe("The agent compacted on its own · completed · 180K → 42K");
  });

  it("reads in_progress as 'in progress' and requested as 'Requested compaction'", () => {
    expect(describeMarker(marker(5, { trigger: "requested", status: "in_progress" }))).toBe(
      "Compaction was requested · in progress",
    );
  });

  it("shows one side alone when only it is known, other statuses verbatim", () => {
    expect(describeMarker(marker(5, { context_used: 180_000 }))).toBe(
      "The agent compacted on its own · completed · 180K before",
    );
    expect(
      describeMarker(
        marker(5, { status: "_paused", context_after: { used: 42_000, sequence: 7 } }),
      ),
    ).toBe("The agent compacted on its own · _paused · 42K after");
  });
});

describe("deriveTurnsList", () => {
  it("lists turns newest first with markers interleaved by sequence", () => {
    const view = deriveTurnsList(
      {
        turns: [
          turn(1, {
            input_tokens: 1000,
            output_tokens: 200,
            cost_amount: 0.012,
            cost_currency: "USD",
          }),
          turn(10),
          turn(20, { input_tokens: 50 }),
        ],
        compactions: [
          marker(14, { context_used: 180_000, context_after: { used: 42_000, sequence: 22 } }),
        ],
      },
      { expanded: false },
    );
    expect(view.hiddenTurns).toBe(0);
    expect(view.rows).toEqual([
      { kind: "turn", key: "turn-t20", title: "Turn 3", tokens: "in 50", cost: "—" },
      {
        kind: "compaction",
        key: "compaction-c14",
        text: "The agent compacted on its own · completed · 180K → 42K",
        incomplete: false,
      },
      { kind: "turn", key: "turn-t10", title: "Turn 2", tokens: undefined, cost: "—" },
      { kind: "turn", key: "turn-t1", title: "Turn 1", tokens: "in 1K · out 200", cost: "$0.012" },
    ]);
  });

  it("numbers turns by sequence whatever order the daemon sent them in", () => {
    const view = deriveTurnsList(
      { turns: [turn(9), turn(3)], compactions: [] },
      { expanded: true },
    );
    expect(view.rows.map((row) => (row.kind === "turn" ? row.title : ""))).toEqual([
      "Turn 2",
      "Turn 1",
    ]);
  });

  it("collapses to the newest turns, hiding the markers inside hidden turns, until expanded", () => {
    const turns = Array.from({ length: 55 }, (_, index) => turn(index * 10 + 1));
    const compactions = [marker(25), marker(45), marker(52)];
    const collapsed = deriveTurnsList({ turns, compactions }, { expanded: false });
    expect(collapsed.hiddenTurns).toBe(5);
    const turnRows = collapsed.rows.filter((row) => row.kind === "turn");
    expect(turnRows).toHaveLength(50);
    expect(turnRows[0]?.title).toBe("Turn 55");
    expect(turnRows.at(-1)?.title).toBe("Turn 6");
    // Turn 6 starts at 51: the marker at 52 is shown, those at 25 and 45 are inside hidden turns.
    expect(collapsed.rows.filter((row) => row.kind === "compaction")).toHaveLength(1);

    const expanded = deriveTurnsList({ turns, compactions }, { expanded: true });
    expect(expanded.hiddenTurns).toBe(0);
    expect(expanded.rows).toHaveLength(58);
  });

  it("shows markers even when no turn has been recorded", () => {
    const view = deriveTurnsList({ turns: [], compactions: [marker(3)] }, { expanded: false });
    expect(view.rows).toHaveLength(1);
  });
});

describe("turn costs", () => {
  const turn = (
    turn_id: string,
    sequence: number,
    cost_amount?: number,
    cost_currency = "USD",
  ) => ({
    turn_id,
    sequence,
    usage: {
      timestamp: "2026-11-30T08:00:00.000Z",
      ...(cost_amount === undefined ? {} : { cost_amount, cost_currency }),
    },
  });

  it("when the agent reports a running total, then each turn shows only its own share", () => {
    const costs = turnCosts([turn("t3", 30, 0.05), turn("t1", 10, 0.01), turn("t2", 20, 0.03)]);
    expect(costs.get("t1")).toBe("$0.01");
    expect(costs.get("t2")).toBe("$0.02");
    expect(costs.get("t3")).toBe("$0.02");
  });

  it("when a turn has no reading, then it has no cost and the next turn counts from the last reading", () => {
    const costs = turnCosts([turn("t1", 10, 0.01), turn("t2", 20), turn("t3", 30, 0.04)]);
    expect(costs.has("t2")).toBe(false);
    expect(costs.get("t3")).toBe("$0.03");
  });

  it("when the first reading has no currency, then it is the turn's whole cost (no crash)", () => {
    const bare = {
      turn_id: "t1",
      sequence: 10,
      usage: { timestamp: "2026-11-30T08:00:00.000Z", cost_amount: 0.5 },
    };
    const costs = turnCosts([bare]);
    expect(costs.get("t1")).toBe("0.50");
  });

  it("when the currency changes, then the count restarts from that reading", () => {
    const costs = turnCosts([turn("t1", 10, 0.5), turn("t2", 20, 12, "credits")]);
    expect(costs.get("t2")).toMatch(/12/);
  });
});

describe("sessionTotal", () => {
  it("when the daemon has a total, then it is that, in the one cost format", () => {
    expect(sessionTotal({ total_cost: 2.6143, cost_currency: "USD" }, [])).toBe("$2.61");
  });

  it("when it has none, then the newest running total a turn reported", () => {
    const turns = [
      {
        turn_id: "a",
        sequence: 1,
        usage: { timestamp: AT, cost_amount: 0.004, cost_currency: "USD" },
      },
      { turn_id: "b", sequence: 9, usage: { timestamp: AT } },
    ];
    expect(sessionTotal(undefined, turns)).toBe("<$0.01");
    expect(sessionTotal(undefined, [])).toBeUndefined();
  });
});
