import { describe, expect, it } from "vitest";
import { AUDIT_ITEMS_PER_KIND, CompactionAudit } from "../contract/compaction-audit";
import { Entry } from "../contract/transcript";
import { z } from "../contract/zod";
import { auditCompaction } from "./audit";
import { TranscriptBuilder } from "./corpus/build";

function audit(builder: TranscriptBuilder, summary: string | null, pinned: string[] = []) {
  const span = builder.compact("c1", summary);
  return auditCompaction({
    session_id: "s1",
    entries: span.entries,
    compaction: span.compaction,
    pinned_entry_ids: pinned,
  });
}

describe("auditCompaction", () => {
  it("when a summary drops the last request and a file, then those come first, explained, and the wire schema accepts the audit", () => {
    const builder = new TranscriptBuilder()
      .addTurn({
        user: "Fix the retry loop in src/auth/session.ts",
        tools: [{ kind: "edit", input: { file_path: "src/auth/session.ts" } }],
      })
      .addTurn({
        user: "Then document the retry policy in docs/retries.md",
        tools: [{ kind: "edit", input: { file_path: "docs/retries.md" } }],
      })
      .addTurn({ compact: true });
    const result = audit(builder, "Fixed the retry loop in session.ts.");
    expect(CompactionAudit.parse(result)).toEqual(result);
    expect(result.items.map((item) => [item.key, item.kind, item.status])).toEqual([
      ["instruction:u2", "last_request", "dropped"],
      ["path:docs/retries.md", "path", "dropped"],
      ["instruction:u1", "instruction", "kept"],
      ["path:src/auth/session.ts", "path", "kept"],
    ]);
    expect(result.items[0]?.why).toBe(
      "the summary has 1 of 3 distinctive words of the message; 2 needed",
    );
    expect(result.items[3]?.why).toBe("the summary names session.ts");
    expect(result.counts).toEqual({ total: 4, kept: 2, dropped: 2, unchecked: 0 });
    expect(result.span).toEqual({
      first_turn_id: "turn-1",
      last_turn_id: "turn-2",
      first_turn_number: 1,
      last_turn_number: 2,
      first_entry_id: "u1",
      turns: 2,
      messages: 4,
    });
    expect(result.items[0]).toMatchObject({ entry_id: "u2", turn_id: "turn-2", by_person: true });
  });

  it("when a pinned message is dropped, then it leads the list and its key is in pinned_dropped", () => {
    const builder = new TranscriptBuilder()
      .addTurn({ user: "Keep this: never commit generated protobuf files" })
      .addTurn({ user: "Add the billing service" })
      .addTurn({ compact: true });
    const result = audit(builder, "Added the billing service.", ["u1"]);
    expect(result.items[0]).toMatchObject({ key: "instruction:u1", kind: "pinned", pinned: true });
    expect(result.pinned_dropped).toEqual(["instruction:u1"]);
  });

  it("when the compaction has no summary, then nothing is dropped: every item is unchecked", () => {
    const builder = new TranscriptBuilder()
      .addTurn({
        user: "Refactor core/scheduler.py",
        tools: [{ kind: "read", input: { path: "core/scheduler.py" } }],
      })
      .addTurn({ compact: true });
    const result = audit(builder, null, ["u1"]);
    expect(result.summary_readable).toBe(false);
    expect(result.counts).toEqual({ total: 2, kept: 0, dropped: 0, unchecked: 2 });
    expect(result.pinned_dropped).toEqual([]);
    expect(result.items[0]?.why).toBe("the summary is not readable, so nothing was checked");
  });

  it("when a second compaction loses what the first kept, then previous.lost lists it with the earlier summary", () => {
    const builder = new TranscriptBuilder()
      .addTurn({
        user: "Money amounts are integer cents, never floats",
        tools: [{ kind: "edit", input: { file_path: "src/money.ts" } }],
      })
      .addTurn({ compact: true });
    const first = builder.compact(
      "c1",
      "Rule: money amounts are integer cents, never floats (src/money.ts).",
    );
    builder.addTurn({ user: "Add a receipt page" }).addTurn({ compact: true });
    const second = builder.compact("c2", "Added a receipt page; money is kept in src/money.ts.");
    const result = auditCompaction({
      session_id: "s1",
      entries: second.entries,
      compaction: second.compaction,
      previous: first,
      pinned_entry_ids: [],
    });
    expect(result.previous?.compaction_id).toBe("c1");
    expect(result.previous?.summary).toContain("integer cents");
    expect(result.previous?.lost.map((item) => [item.key, item.status])).toEqual([
      ["instruction:u1", "dropped"],
    ]);
    expect(result.previous?.lost[0]?.why).toMatch(
      /^the previous summary kept it; now the summary has/,
    );
  });

  it("when the span holds system lines (plans, notices), then they are not counted as messages or turns", () => {
    const builder = new TranscriptBuilder()
      .addTurn({ user: "Plan the release", plan: ["Tag the release"], errorEvent: "Rate limited" })
      .addTurn({ user: "/demo lossy" })
      .addTurn({ compact: true });
    const result = audit(builder, "Planned the release.");
    expect(result.span).toMatchObject({ turns: 2, messages: 2, first_entry_id: "u1" });
    // A slash command is a turn, not an instruction: the last request is the plan request.
    expect(result.items.find((item) => item.kind === "last_request")?.label).toBe(
      "Plan the release",
    );
  });

  it("when a pinned message from an earlier span is checked, then the span's own items keep their own turns", () => {
    const builder = new TranscriptBuilder().addTurn({ user: "Keep this: tabs, not spaces" });
    const first = builder.compact("c1", "Rule: tabs, not spaces.");
    builder.addTurn({ agent: "Continuing in docs/style.md" }).addTurn({ user: "Now lint it" });
    const second = builder.compact("c2", "Linting.");
    const result = auditCompaction({
      session_id: "s1",
      entries: second.entries,
      compaction: second.compaction,
      previous: first,
      pinned_entry_ids: ["u1"],
      pinned_entries: first.entries,
    });
    expect(result.items.find((item) => item.kind === "pinned")).toMatchObject({
      turn_id: "turn-1",
    });
    expect(result.items.find((item) => item.kind === "path")?.turn_id).toBeUndefined();
    expect(result.pinned_dropped).toEqual(["instruction:u1"]);
  });

  it("when identifiers and URLs appear once, then they are not listed; twice, they are", () => {
    const builder = new TranscriptBuilder()
      .addTurn({
        user: "Look at parseConfig and https://example.com/a once",
        agent: "parseConfig reads JSON.",
      })
      .addTurn({ compact: true });
    const keys = audit(builder, "Looked at it.").items.map((item) => item.key);
    expect(keys).toContain("identifier:parseConfig");
    expect(keys).not.toContain("url:https://example.com/a");
  });

  it("when a relative path and the absolute path of the same file appear, then they are one item", () => {
    const builder = new TranscriptBuilder()
      .addTurn({
        user: "Open src/app.ts",
        tools: [{ kind: "read", locations: ["/home/user/w/src/app.ts"] }],
      })
      .addTurn({ compact: true });
    const paths = audit(builder, "nothing").items.filter((item) => item.kind === "path");
    expect(paths).toMatchObject([
      { key: "path:/home/user/w/src/app.ts", mentions: 2, entry_id: "u1" },
    ]);
  });
});

describe("auditCompaction on hostile input", () => {
  it("when the summary and a message are 1 MB each, then it answers in bounded time with bounded labels", () => {
    const huge = `${"lorem ipsum dolor sit amet src/x.ts ".repeat(30_000)}`;
    const builder = new TranscriptBuilder().addTurn({ user: huge }).addTurn({ compact: true });
    const started = performance.now();
    const result = audit(builder, huge);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result.items[0]?.label.length).toBeLessThanOrEqual(20_000);
    expect(result.items[0]?.label.endsWith("…")).toBe(true);
    expect(JSON.stringify(result).length).toBeLessThan(100_000);
  });

  it("when a span names 10,000 paths, then each kind lists at most the cap and the rest is counted", () => {
    const tools = Array.from({ length: 10_000 }, (_, index) => ({
      kind: "read",
      input: { file_path: `src/generated/file-${index}.ts` },
    }));
    const builder = new TranscriptBuilder()
      .addTurn({ user: "Read everything", tools })
      .addTurn({ compact: true });
    const started = performance.now();
    const result = audit(builder, "Read src/generated/file-7.ts and file-9.ts.");
    expect(performance.now() - started).toBeLessThan(2000);
    const paths = result.items.filter((item) => item.kind === "path");
    expect(paths).toHaveLength(AUDIT_ITEMS_PER_KIND);
    expect(result.counts).toMatchObject({ total: 10_001, kept: 3, dropped: 9_998 });
    expect(result.omitted).toBe(10_001 - result.items.length);
    expect(paths.every((item) => item.status === "dropped")).toBe(true);
  });

  it("when fields hold Markdown, HTML and control characters, then labels are that text, never markup or escapes", () => {
    const builder = new TranscriptBuilder()
      .addTurn({
        user: "<script>alert(1)</script> **bold** [x](javascript:alert(1)) \u0007\u001b[31m",
        tools: [
          {
            kind: "execute",
            input: { command: "<img src=x onerror=alert(1)>" },
            error: "<b>boom</b>",
          },
        ],
      })
      .addTurn({ compact: true });
    const result = audit(builder, "<script>alert(1)</script>");
    const instruction = result.items.find((item) => item.kind === "last_request");
    expect(instruction?.label).toBe(
      "<script>alert(1)</script> **bold** [x](javascript:alert(1)) [31m",
    );
    expect(CompactionAudit.safeParse(result).success).toBe(true);
    expect(result.items.find((item) => item.kind === "error")?.label).toBe(
      "<img src=x onerror=alert(1)>: <b>boom</b>",
    );
  });

  it("when entries are malformed (unknown parts, non-object inputs, no metadata), then it does not throw", () => {
    const span = new TranscriptBuilder().compact("c1", "x");
    // As a client receives them: raw JSON through the contract's lenient parser.
    const raw = [
      { id: "m1", role: "assistant", parts: [{ type: "mystery", x: 1 }, { type: "text" }] },
      {
        id: "m2",
        role: "assistant",
        parts: [
          {
            type: "tool-execute",
            toolCallId: "t",
            state: "output-error",
            input: ["rm", 5],
            output: "nope",
          },
        ],
      },
      { id: "m3", role: "user", metadata: "weird", parts: null },
      {
        id: "m4",
        role: "system",
        parts: [{ type: "data-compozy-event", data: { type: "plan", entries: "not a list" } }],
      },
    ];
    const entries = z
      .array(Entry)
      .parse(
        raw.map((message, index) => ({ message, start_sequence: index + 1, sequence: index + 1 })),
      );
    const result = auditCompaction({
      session_id: "s",
      entries,
      compaction: span.compaction,
      pinned_entry_ids: ["m3"],
    });
    expect(result.items.map((item) => item.key)).toEqual(["error:t", "instruction:m3"]);
  });
});
