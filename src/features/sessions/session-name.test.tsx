// @vitest-environment jsdom
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { SessionName } from "./session-name";

describe("the session name", () => {
  it("when the daemon cannot rename, then it is only the page's h1", () => {
    render(<SessionName title="Refactor" />);
    expect(screen.getByRole("heading", { level: 1, name: "Refactor" })).toBeVisible();
    expect(screen.queryByRole("button", { name: "Rename session" })).toBeNull();
  });

  it("when renamed with Enter, then the new name is sent and focus returns to Rename", async () => {
    const user = userEvent.setup();
    const onRename = vi.fn().mockResolvedValue(undefined);
    render(<SessionName title="Refactor" onRename={onRename} />);
    await user.click(screen.getByRole("button", { name: "Rename session" }));
    const field = screen.getByRole("textbox", { name: "Session name" });
    expect(field).toHaveFocus();
    await user.clear(field);
    await user.type(field, "  Meter work {Enter}");
    expect(onRename).toHaveBeenCalledWith("Meter work");
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Rename session" })).toHaveFocus(),
    );
  });

  it("when Escape is pressed in the field, then nothing is sent and the event goes no further", async () => {
    const user = userEvent.setup();
    const onRename = vi.fn();
    const outside = vi.fn();
    window.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !event.defaultPrevented) outside();
    });
    render(<SessionName title="Refactor" onRename={onRename} />);
    await user.click(screen.getByRole("button", { name: "Rename session" }));
    await user.keyboard("x{Escape}");
    expect(onRename).not.toHaveBeenCalled();
    expect(outside).not.toHaveBeenCalled();
    expect(screen.getByRole("heading", { level: 1, name: "Refactor" })).toBeVisible();
  });

  it("when the daemon refuses, then its words show and the field stays", async () => {
    const user = userEvent.setup();
    const onRename = vi.fn().mockRejectedValue(new Error("name too long"));
    render(<SessionName title="Refactor" onRename={onRename} />);
    await user.click(screen.getByRole("button", { name: "Rename session" }));
    await user.type(screen.getByRole("textbox", { name: "Session name" }), "!{Enter}");
    expect(await screen.findByRole("alert")).toHaveTextContent("name too long");
    expect(screen.getByRole("textbox", { name: "Session name" })).toBeVisible();
  });
});
