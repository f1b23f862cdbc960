import { describe, expect, it } from "vitest";
import type { Entry } from "../contract/transcript";
import {
  compactionOrigin,
  compactionRequests,
  describeOrigin,
  maintenanceSender,
} from "./compaction-origin";

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
  const wordsFor = (trigger: "agent" | "requested" | undefined, entries: Entry[], id: string) =>
    describeOrigin(compactionOrigin(trigger, compactionRequests(entries).get(id)));

  it("when the user typed /compact, then its compaction reads 'You typed /compact'", () => {
    const requests = compactionRequests([
      user("hello"),
      compaction("a"),
      user(" /compact "),
      compaction("b"),
    ]);
    expect(requests.get("a")).toBeUndefined();
    expect(describeOrigin(compactionOrigin("agent", requests.get("b")))).toBe("You typed /compact");
  });

  it("when each caller requested Compact now, then the row names that caller", () => {
    const by = (requested_by: string, id: string) =>
      wordsFor(
        "requested",
        [user("/compact", { maintenance: true, requested_by }), compaction(id)],
        id,
      );
    expect(by("web", "w")).toBe("You pressed Compact now");
    expect(by("cli", "c")).toBe("Requested from the command line");
    expect(by("tool", "t")).toBe("An agent asked with its session tool");
    expect(by("http", "h")).toBe("Requested through the HTTP API");
  });

  it("when a daemon does not say who requested it, then no one is named (not 'You pressed')", () => {
    expect(
      wordsFor("requested", [user("/compact", { maintenance: true }), compaction("m")], "m"),
    ).toBe("Compaction was requested");
    // A hostile or unknown value is not shown: it reads as unknown.
    expect(
      wordsFor(
        "requested",
        [user("/compact", { maintenance: true, requested_by: "<b>root</b>" }), compaction("x")],
        "x",
      ),
    ).toBe("Compaction was requested");
  });

  it("when the person typed /compact and the daemon ran it as Compact now, then it reads as typed, from where", () => {
    expect(
      wordsFor(
        "requested",
        [
          user("/compact", { maintenance: true, typed: true, requested_by: "web" }),
          compaction("t"),
        ],
        "t",
      ),
    ).toBe("You typed /compact");
    expect(
      wordsFor(
        "requested",
        [
          user("/compress", { maintenance: true, typed: true, requested_by: "cli" }),
          compaction("u"),
        ],
        "u",
      ),
    ).toBe("/compress typed from the command line");
  });

  it("when no marker is known yet, then the request's own prompt still names the caller", () => {
    expect(
      wordsFor(
        undefined,
        [user("/compact", { maintenance: true, requested_by: "tool" }), compaction("n")],
        "n",
      ),
    ).toBe("An agent asked with its session tool");
  });

  it("when the agent compacted inside an ordinary turn, then it did so on its own", () => {
    expect(wordsFor("agent", [user("/compactify the tests"), compaction("d")], "d")).toBe(
      "The agent compacted on its own",
    );
    expect(wordsFor("agent", [user("hello"), compaction("e")], "e")).toBe(
      "The agent compacted on its own",
    );
  });
});

describe("who sent Compact now's prompt", () => {
  it("when the daemon recorded the caller, then the message is from that caller, 'You' only from the page", () => {
    expect(maintenanceSender({ maintenance: true, requested_by: "web" })).toBe(
      "You · via Compact now",
    );
    expect(maintenanceSender({ maintenance: true, requested_by: "cli" })).toBe(
      "Compact now · from the command line",
    );
    expect(maintenanceSender({ maintenance: true, requested_by: "tool" })).toBe(
      "Compact now · from an agent's session tool",
    );
    expect(maintenanceSender({ maintenance: true, requested_by: "http" })).toBe(
      "Compact now · through the HTTP API",
    );
    expect(maintenanceSender({ maintenance: true })).toBe("Compact now");
  });

  it("when the person typed it or it is an ordinary message, then it is theirs (no sender)", () => {
    expect(
      maintenanceSender({ maintenance: true, typed: true, requested_by: "cli" }),
    ).toBeUndefined();
    expect(maintenanceSender({ turn_id: "t" })).toBeUndefined();
    expect(maintenanceSender(undefined)).toBeUndefined();
    expect(maintenanceSender("maintenance")).toBeUndefined();
  });
});
