// @vitest-environment jsdom
import { act, render, renderHook, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import { Entry } from "../../contract/transcript";
import { EntryRow } from "./entry-row";
import { isFollowing, useTimelineActions } from "./timeline-store";

beforeEach(() => {
  const { result, unmount } = renderHook(() => useTimelineActions());
  act(() => result.current.sessionOpened());
  unmount();
});

const paragraphs = Array.from({ length: 60 }, (_, index) => `Paragraph ${index + 1}.`).join("\n\n");

function entry(role: "assistant" | "user", text: string, state = "done") {
  return Entry.parse({
    start_sequence: 7,
    sequence: 9,
    message: { id: "m1", role, parts: [{ type: "text", text, state }] },
  });
}

describe("a long agent reply", () => {
  it("when it is over the threshold, then it folds behind Show more, opens and closes by keyboard", async () => {
    const user = userEvent.setup();
    render(<EntryRow entry={entry("assistant", paragraphs)} markerFor={() => undefined} />);
    expect(await screen.findByText("Paragraph 20.")).toBeInTheDocument();
    expect(screen.queryByText("Paragraph 21.")).toBeNull();
    const more = screen.getByRole("button", { name: /^Show more/ });
    expect(more).toHaveAccessibleName("Show more (80 more lines)");
    expect(more).toHaveAttribute("aria-expanded", "false");
    more.focus();
    await user.keyboard("{Enter}");
    expect(await screen.findByText("Paragraph 60.")).toBeInTheDocument();
    const less = screen.getByRole("button", { name: "Show less" });
    expect(less).toHaveAttribute("aria-expanded", "true");
    expect(less).toHaveFocus();
    await user.keyboard(" ");
    expect(screen.queryByText("Paragraph 60.")).toBeNull();
    expect(screen.getByRole("button", { name: /^Show more/ })).toHaveFocus();
  });

  it("when it is folded again at the tail, then the view stops following so the button stays in view", async () => {
    const user = userEvent.setup();
    render(<EntryRow entry={entry("assistant", paragraphs)} markerFor={() => undefined} />);
    await user.click(await screen.findByRole("button", { name: /^Show more/ }));
    expect(isFollowing()).toBe(true);
    await user.click(screen.getByRole("button", { name: "Show less" }));
    expect(isFollowing()).toBe(false);
  });

  it("when the row leaves the virtual window and comes back, then it is open as it was", async () => {
    const user = userEvent.setup();
    const row = <EntryRow entry={entry("assistant", paragraphs)} markerFor={() => undefined} />;
    const first = render(row);
    await user.click(screen.getByRole("button", { name: /^Show more/ }));
    first.unmount();
    render(row);
    expect(screen.getByRole("button", { name: "Show less" })).toBeVisible();
  });

  it("when it is still streaming, or it is the person's message, then it is not folded", async () => {
    render(
      <>
        <EntryRow entry={entry("assistant", paragraphs, "streaming")} markerFor={() => undefined} />
        <EntryRow entry={entry("user", paragraphs)} markerFor={() => undefined} />
      </>,
    );
    expect(await screen.findAllByText("Paragraph 60.")).toHaveLength(2);
    expect(screen.queryByRole("button", { name: /^Show more/ })).toBeNull();
  });
});
