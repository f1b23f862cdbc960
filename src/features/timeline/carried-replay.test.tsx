// @vitest-environment jsdom
import { act, render, renderHook, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import { Part } from "../../contract/transcript";
import { PartView } from "./part-view";
import { useTimelineActions } from "./timeline-store";

beforeEach(() => {
  const { result, unmount } = renderHook(() => useTimelineActions());
  act(() => result.current.sessionOpened());
  unmount();
});

function renderCarried(data: Record<string, unknown>) {
  const part = Part.parse({
    type: "data-compozy-event",
    data: { type: "session.replay_carried", ...data },
  });
  return render(<PartView part={part} itemKey="1:0" markerFor={() => undefined} />);
}

describe("what a continued or forked session carries", () => {
  it("when the session was continued, then its first row names the source and opens to the carried messages", async () => {
    const user = userEvent.setup();
    renderCarried({
      source_session_id: "s1",
      source_name: "Billing",
      kind: "continue",
      message_count: 2,
      omitted_count: 0,
      truncated: false,
      replay_bytes: 1_536,
      messages: [
        { role: "user", content: "Plan the billing migration" },
        { role: "assistant", content: "First, move the tables." },
      ],
    });
    const region = screen.getByRole("region", { name: "Continued from “Billing”" });
    expect(region).toHaveTextContent(
      "This session's first prompt gives the agent 2 messages of that conversation (1.5 KB).",
    );
    const toggle = screen.getByRole("button", { name: "Show what was carried" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByText("Plan the billing migration")).toBeNull();
    await user.click(toggle);
    expect(screen.getByRole("button", { name: "Hide what was carried" })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    const items = screen.getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual([
      "YouPlan the billing migration",
      "AgentFirst, move the tables.",
    ]);
  });

  it("when a fork's replay left messages out, or its data is malformed, then it says what it can", () => {
    renderCarried({
      kind: "fork",
      message_count: 3,
      omitted_count: 40,
      replay_bytes: "lots",
      messages: [
        { role: "user" },
        "junk",
        { role: "system", content: "[40 earlier messages omitted]" },
      ],
    });
    expect(
      screen.getByRole("region", { name: "Forked from an earlier session" }),
    ).toHaveTextContent(
      "gives the agent 3 messages of that conversation (0 bytes). 40 earlier messages are left out to fit the budget.",
    );
  });
});
