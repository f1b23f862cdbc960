import { describe, expect, it } from "vitest";
import { answered, claudeWritePending, codexPending } from "../../testing/permissions";
import { approveBody, permissionAnnouncement, permissionView } from "./permission-view";

describe("permissionView", () => {
  it("when Codex asks to run a command, then the view names it and keeps the agent's options in order", () => {
    const view = permissionView(codexPending);
    expect(view.pending).toBe(true);
    expect(view.title).toBe("touch /home/user/.agent && echo probe-done");
    expect(view.toolKind).toBe("execute");
    expect(view.command).toBe("touch /home/user/.agent && echo probe-done");
    expect(view.options.map((option) => [option.label, option.tone])).toEqual([
      ["Yes, proceed", "allow"],
      ["Yes, and don't ask again for commands that start with `touch /home/user/.agent`", "allow"],
      ["No, and tell Codex what to do differently", "reject"],
    ]);
  });

  it("when Claude asks to write a file, then its diff and note are part of the request", () => {
    const view = permissionView(claudeWritePending);
    expect(view.diffs).toEqual([
      { path: "/p/notes.md", oldText: null, newText: "# Notes\nfirst\n" },
    ]);
    expect(view.notes).toEqual(["Create the notes file"]);
    expect(view.command).toBeUndefined();
  });

  it("when allowed once from the browser, then it reads 'Allowed once' with the option and who", () => {
    const view = permissionView(
      answered(codexPending, {
        status: "resolved",
        resolved_by: "web",
        decision: "allow-once",
        option_id: "allow_once",
        option_label: "Yes, proceed",
      }),
    );
    expect(view.pending).toBe(false);
    expect(view.outcome).toBe("Allowed once");
    expect(view.outcomeDetail).toBe("“Yes, proceed” · from the browser");
    expect(view.outcomeTone).toBe("allow");
  });

  it("when rejected by an option id (the decision field naming the option), then it reads 'Rejected'", () => {
    const view = permissionView(
      answered(claudeWritePending, { status: "resolved", resolved_by: "cli", decision: "reject" }),
    );
    expect(view.outcome).toBe("Rejected");
    expect(view.outcomeDetail).toBe("“No” · from the CLI");
    expect(view.outcomeTone).toBe("reject");
  });

  it("when the turn was cancelled or the agent stopped, then it is closed with the daemon's reason", () => {
    expect(
      permissionView(
        answered(codexPending, {
          status: "canceled",
          resolved_by: "daemon",
          reason: "turn cancelled",
        }),
      ),
    ).toMatchObject({
      outcome: "Cancelled",
      outcomeDetail: "turn cancelled · by the daemon",
      outcomeTone: "closed",
    });
    expect(
      permissionView(answered(codexPending, { status: "orphaned", reason: "agent crashed" }))
        .outcome,
    ).toBe("Closed unanswered");
  });

  it("when the policy declined with no option, then it says so", () => {
    const view = permissionView(
      answered(codexPending, {
        status: "resolved",
        resolved_by: "policy",
        reason: "no reject option offered",
      }),
    );
    expect(view.outcome).toBe("Declined without a choice");
    expect(view.outcomeDetail).toBe(
      "no reject option offered · by the daemon's --permissions policy",
    );
  });

  it("when a CompozyOS part has no status, then it is pending until it carries a decision", () => {
    expect(permissionView({ type: "permission", title: "x" }).pending).toBe(true);
    const done = permissionView({
      type: "permission",
      title: "x",
      decision: "allow-always",
      resolved_by: "alice",
    });
    expect(done).toMatchObject({
      pending: false,
      outcome: "Always allowed",
      outcomeDetail: "by alice",
    });
  });

  it("when the data is hostile, then the view is plain and safe", () => {
    const view = permissionView({
      type: "permission",
      title: 42,
      raw: {
        options: [
          null,
          { option_id: "" },
          { option_id: "a", kind: 3 },
          { option_id: "a" },
          ...Array(40).fill({ option_id: "z" }),
        ],
        tool_call: { content: "nope" },
      },
    });
    expect(view.title).toBe("A tool call");
    expect(view.options.map((option) => option.optionId)).toEqual(["a", "z"]);
    expect(view.options[0]?.label).toBe("a");
    expect(view.diffs).toEqual([]);
    expect(permissionView({ type: "permission", raw: "x" }).options).toEqual([]);
  });
});

describe("approveBody", () => {
  it("when an option is chosen, then the body names the request, the turn and the exact optionId", () => {
    const view = permissionView(codexPending);
    const option = view.options[2];
    if (!option) throw new Error("fixture");
    expect(approveBody(view, option)).toEqual({
      request_id: "perm_1",
      turn_id: "turn_1",
      decision: "cancel",
    });
  });
});

describe("permissionAnnouncement", () => {
  it("when pending or answered, then the sentence says which", () => {
    expect(permissionAnnouncement(permissionView(codexPending))).toBe(
      "Approval needed: touch /home/user/.agent && echo probe-done",
    );
    expect(
      permissionAnnouncement(
        permissionView(
          answered(claudeWritePending, { status: "resolved", decision: "allow-once" }),
        ),
      ),
    ).toBe("Allowed once: Write notes.md");
  });
});
