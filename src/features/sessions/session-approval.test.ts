import { describe, expect, it } from "vitest";
import { approvalBadge, pendingApprovals, tabTitle } from "./session-approval";

const waiting = { interaction_id: "perm_1", kind: "permission", status: "pending" };

describe("session approval", () => {
  it("when a permission waits, then the session needs approval in the sidebar and the tab", () => {
    const session = { pending_interactions: [waiting] };
    expect(approvalBadge(session)).toBe("needs approval");
    expect(tabTitle("Fix the build", session)).toBe(
      "(1) Needs approval · Fix the build · Tideline",
    );
    expect(
      approvalBadge({ pending_interactions: [waiting, { ...waiting, interaction_id: "p2" }] }),
    ).toBe("2 need approval");
  });

  it("when nothing waits, then there is no badge and a plain title", () => {
    expect(approvalBadge({ pending_interactions: [] })).toBeUndefined();
    expect(approvalBadge({})).toBeUndefined();
    expect(approvalBadge(undefined)).toBeUndefined();
    expect(tabTitle("s", { pending_interactions: [{ ...waiting, status: "resolved" }] })).toBe(
      "s · Tideline",
    );
    expect(tabTitle(undefined, undefined)).toBe("Tideline");
  });

  it("when interactions are hostile or of another kind, then they do not count", () => {
    expect(pendingApprovals({ pending_interactions: "x" })).toBe(0);
    expect(pendingApprovals({ pending_interactions: [null, 3, { kind: "question" }, {}] })).toBe(1);
  });
});
