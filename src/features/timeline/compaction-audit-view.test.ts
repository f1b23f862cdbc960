import { describe, expect, it } from "vitest";
import { auditItem, lossyAudit } from "../../testing/audits";
import {
  countsLine,
  foldedLabel,
  LABEL_FOLD_CHARS,
  labelFolds,
  remindable,
  reminderPrompt,
  spanLine,
} from "./compaction-audit-view";

describe("the span line", () => {
  it("when a compaction replaced several turns, then it names the first and last and the messages", () => {
    expect(spanLine(lossyAudit().span)).toBe("Replaced turns 3–17 · 42 messages");
  });

  it("when it replaced one turn or no turn, then it says so in those words", () => {
    const span = lossyAudit().span;
    expect(spanLine({ ...span, last_turn_number: 3, turns: 1, messages: 1 })).toBe(
      "Replaced turn 3 · 1 message",
    );
    expect(spanLine({ ...span, turns: 0, first_turn_number: 0, messages: 2 })).toBe(
      "Replaced 2 messages",
    );
  });
});

describe("the counts", () => {
  it("when the summary is readable, then kept of total and dropped; when not, nothing is called dropped", () => {
    expect(countsLine(lossyAudit())).toBe("kept 1 of 5 · 4 dropped");
    expect(
      countsLine(
        lossyAudit({
          summary_readable: false,
          counts: { total: 5, kept: 0, dropped: 0, unchecked: 5 },
        }),
      ),
    ).toBe("5 items unchecked");
    expect(
      countsLine(
        lossyAudit({ items: [], counts: { total: 0, kept: 0, dropped: 0, unchecked: 0 } }),
      ),
    ).toBe("nothing to check");
  });
});

describe("Remind the agent", () => {
  it("offers pinned messages first, then the last request, then the rest in the audit's order; never a kept item", () => {
    expect(remindable(lossyAudit()).map((item) => item.key)).toEqual([
      "pinned:m-1",
      "last_request:m-9",
      "path:src/auth.ts",
      "command:npm test",
    ]);
  });

  it("quotes the person's words verbatim (Markdown and HTML as typed, every line) and lists the rest", () => {
    const prompt = reminderPrompt(remindable(lossyAudit()));
    expect(prompt).toBe(
      [
        "The last context compaction dropped these from its summary. Keep them in mind:",
        "",
        "I pinned this:",
        "",
        "> Never edit files under src/gen/: they are generated.",
        "",
        "My last request:",
        "",
        "> Now add the **retry** to <b>fetchUser</b>, keep `maxRetries` at 3.",
        "",
        "Also:",
        "- The file `src/auth.ts`",
        "- The command `npm test -- auth`",
        "",
      ].join("\n"),
    );
  });

  it("keeps a multi-line instruction one quote, and code spans survive backticks in a path", () => {
    const prompt = reminderPrompt([
      auditItem({
        key: "instruction:m",
        kind: "instruction",
        label: "one\n\ntwo",
        by_person: true,
      }),
      auditItem({ key: "path:a`b", label: "a`b" }),
    ]);
    expect(prompt).toContain("I asked:\n\n> one\n>\n> two");
    expect(prompt).toContain("- The file ``a`b``");
  });
});

describe("long labels", () => {
  it("fold past the character or line bound and show their start", () => {
    expect(labelFolds("short")).toBe(false);
    expect(labelFolds("x".repeat(LABEL_FOLD_CHARS + 1))).toBe(true);
    expect(labelFolds("1\n2\n3\n4\n5")).toBe(true);
    expect(foldedLabel("1\n2\n3\n4\n5")).toBe("1\n2\n3\n4…");
    expect(foldedLabel("y".repeat(1_000_000)).length).toBe(LABEL_FOLD_CHARS);
  });
});
