// @vitest-environment jsdom
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Entry, Message } from "../../contract/transcript";
import { EntryRow } from "./entry-row";
import { messageText } from "./timeline-view";

function entry(message: Message): Entry {
  return { message, start_sequence: 1, sequence: 1 };
}

const reply: Message = {
  id: "m1",
  role: "assistant",
  parts: [
    { type: "text", text: "First **part**." },
    { type: "reasoning", text: "not copied" },
    { type: "text", text: "Second part.\n" },
  ],
} as Message;

describe("Copy message", () => {
  it("when a message has text parts, then Copy message copies them as written, and nothing else", async () => {
    const user = userEvent.setup();
    await act(async () => {
      render(<EntryRow entry={entry(reply)} markerFor={() => undefined} />);
    });
    await user.click(screen.getByRole("button", { name: "Copy message" }));
    expect(await navigator.clipboard.readText()).toBe("First **part**.\n\nSecond part.");
    expect(screen.getByRole("status")).toHaveTextContent("Copied");
  });

  it("when a message has no text (only a tool call or a notice), then there is nothing to copy", () => {
    const toolOnly = { id: "m2", role: "assistant", parts: [] } as unknown as Message;
    expect(messageText(toolOnly)).toBe("");
    render(<EntryRow entry={entry(toolOnly)} markerFor={() => undefined} />);
    expect(screen.queryByRole("button", { name: "Copy message" })).toBeNull();
  });
});
