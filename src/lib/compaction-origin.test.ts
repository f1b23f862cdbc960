import { describe, expect, it } from "vitest";
import type { Entry } from "../contract/transcript";
import { compactionOrigin, describeOrigin, typedCompactions } from "./compaction-origin";

let sequence = 0;
function user(text: string, metadata?: Record<string, unknown>): Entry {
  sequence += 1;
  return {
    start_sequence: sequence,
    sequence,
    message: {
      id: `u${sequence}`,
      role: "user",
      ...(metadata ? { metadata } : {}),
      parts: [{ type: "text", id: "t", text }],
    },
  };
}
function compaction(id: string): Entry {
  sequence += 1;
  return {
    start_sequence: sequence,
    sequence,
    message: {
      id: `c${sequence}`,
      role: "assistant",
      parts: [
        {
          type: "data-compozy-compaction",
          id: "p",
          data: {
            kind: "compaction",
            compaction_id: id,
            status: "completed",
            started_at: "2026-01-01T00:00:00Z",
          },
        },
      ],
    },
  };
}

describe("who started a compaction", () => {
  it("when the user typed /compact, then its compaction reads 'You typed /compact'", () => {
    const typed = typedCompactions([
      user("hello"),
      compaction("a"),
      user(" /compact "),
      compaction("b"),
    ]);
    expect(typed.get("a")).toBeUndefined();
    expect(describeOrigin(compactionOrigin("agent", typed.get("b")))).toBe("You typed /compact");
  });

  it("when Compact now sent the command (maintenance), then it reads as the button", () => {
    const typed = typedCompactions([user("/compact", { maintenance: true }), compaction("c")]);
    expect(typed.get("c")).toBeUndefined();
    expect(describeOrigin(compactionOrigin("requested", typed.get("c")))).toBe(
      "You pressed Compact now",
    );
  });

  it("when the person typed /compact and the daemon ran it as Compact now, then it reads as typed", () => {
    const typed = typedCompactions([
      user("/compact", { maintenance: true, typed: true }),
      compaction("t"),
    ]);
    expect(describeOrigin(compactionOrigin("requested", typed.get("t")))).toBe(
      "You typed /compact",
    );
  });

  it("when the agent compacted inside an ordinary turn, then it did so on its own", () => {
    const typed = typedCompactions([user("/compactify the tests"), compaction("d")]);
    expect(describeOrigin(compactionOrigin("agent", typed.get("d")))).toBe(
      "The agent compacted on its own",
    );
  });
});
