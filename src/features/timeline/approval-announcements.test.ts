import { describe, expect, it } from "vitest";
import { answered, codexPending } from "../../testing/permissions";
import { collectApprovalAnnouncements } from "./approval-announcements";

function entries(data: Record<string, unknown>) {
  return [
    {
      message: {
        parts: [{ type: "text" }, { type: "data-compozy-permission", id: "perm_1", data }],
      },
    },
  ];
}

describe("collectApprovalAnnouncements", () => {
  it("when a request appears pending, then it is announced once; its answer is announced after", () => {
    const seen = new Map<string, boolean>();
    expect(collectApprovalAnnouncements(seen, entries(codexPending))).toEqual([
      "Approval needed: touch /home/user/.agent && echo probe-done",
    ]);
    expect(collectApprovalAnnouncements(seen, entries(codexPending))).toEqual([]);
    const done = answered(codexPending, { status: "resolved", decision: "reject-once" });
    expect(collectApprovalAnnouncements(seen, entries(done))).toEqual([
      "Rejected: touch /home/user/.agent && echo probe-done",
    ]);
  });

  it("when a request is first seen answered (a reload), then it is not news", () => {
    const done = answered(codexPending, { status: "resolved", decision: "allow-once" });
    expect(collectApprovalAnnouncements(new Map(), entries(done))).toEqual([]);
  });

  it("when a permission part has no data object, then it is skipped", () => {
    const seen = new Map<string, boolean>();
    expect(
      collectApprovalAnnouncements(seen, [
        { message: { parts: [{ type: "data-compozy-permission", data: null }] } },
      ]),
    ).toEqual([]);
  });
});
