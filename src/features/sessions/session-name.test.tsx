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

describe("the session name while it is edited", () => {
  it("when the field is open, then the page still has its h1", async () => {
    const user = userEvent.setup();
    render(<SessionName title="Refactor" onRename={vi.fn()} />);
    await user.click(screen.getByRole("button", { name: "Rename session" }));
    expect(screen.getByRole("textbox", { name: "Session name" })).toBeVisible();
    expect(screen.getByRole("heading", { level: 1, name: "Refactor" })).toBeInTheDocument();
  });

  it("when the name is emptied and saved, then an alert says why and nothing is sent", async () => {
    const user = userEvent.setup();
    const onRename = vi.fn();
    render(<SessionName title="Refactor" onRename={onRename} />);
    await user.click(screen.getByRole("button", { name: "Rename session" }));
    const field = screen.getByRole("textbox", { name: "Session name" });
    await user.clear(field);
    await user.type(field, "   {Enter}");
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent(
      'A session needs a name: type one, or press Escape to keep "Refactor".',
    );
    expect(onRename).not.toHaveBeenCalled();
    expect(field).toHaveFocus();
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(field).toHaveAccessibleDescription(/A session needs a name/);
    // Typing a name clears the complaint; Escape still leaves with the old name.
    await user.type(field, "x");
    expect(screen.queryByRole("alert")).toBeNull();
  });
});

describe("the session name as a focus target", () => {
  it("when a session was picked in the sidebar, then its heading takes focus once", async () => {
    const { requestFocus } = await import("../../lib/focus-request");
    requestFocus("session-heading");
    const { rerender } = render(<SessionName title="Refactor" onRename={vi.fn()} />);
    const heading = screen.getByRole("heading", { level: 1, name: "Refactor" });
    expect(heading).toHaveFocus();
    heading.blur();
    rerender(<SessionName title="Refactor, renamed" onRename={vi.fn()} />);
    expect(screen.getByRole("heading", { level: 1 })).not.toHaveFocus();
  });
});
