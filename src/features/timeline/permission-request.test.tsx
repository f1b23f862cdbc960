// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { answered, claudeWritePending, codexPending } from "../../testing/permissions";
import { type ApprovalState, PermissionRequest } from "./permission-request";
import { permissionView } from "./permission-view";

const idle: ApprovalState = { sending: undefined, error: undefined, answeredHere: false };

describe("PermissionRequest", () => {
  it("when pending, then the request names the tool and offers the agent's options as buttons, by keyboard", async () => {
    const user = userEvent.setup();
    const onChoose = vi.fn();
    render(
      <PermissionRequest view={permissionView(codexPending)} state={idle} onChoose={onChoose} />,
    );
    const group = screen.getByRole("group", {
      // Words apart, not "approvalexecute touch".
      name: "Needs your approval: execute touch /home/user/.agent && echo probe-done",
    });
    expect(within(group).getByText("execute")).toBeInTheDocument();
    const buttons = within(group).getAllByRole("button");
    expect(buttons.map((button) => button.textContent)).toEqual([
      "Yes, proceed",
      "Yes, and don't ask again for commands that start with `touch /home/user/.agent`",
      "No, and tell Codex what to do differently",
    ]);
    await user.tab();
    expect(buttons[0]).toHaveFocus();
    await user.tab();
    await user.tab();
    await user.keyboard("{Enter}");
    expect(onChoose).toHaveBeenCalledWith(
      expect.objectContaining({ optionId: "cancel", kind: "reject_once" }),
    );
  });

  it("when the request writes a file, then its diff is shown as a new file", async () => {
    render(
      <PermissionRequest
        view={permissionView(claudeWritePending)}
        state={idle}
        onChoose={vi.fn()}
      />,
    );
    // The diff view is a lazily loaded chunk (ADR 0211).
    expect(await screen.findByText("new file, 2 lines")).toBeInTheDocument();
    expect(screen.getByRole("table", { name: "Changes to /p/notes.md" })).toBeInTheDocument();
    expect(screen.getByText("Create the notes file")).toBeInTheDocument();
  });

  it("when an option is being sent, then every option waits and the chosen one is busy", () => {
    render(
      <PermissionRequest
        view={permissionView(codexPending)}
        state={{ ...idle, sending: "allow_once" }}
        onChoose={vi.fn()}
      />,
    );
    const chosen = screen.getByRole("button", { name: "Yes, proceed" });
    expect(chosen).toHaveAttribute("aria-busy", "true");
    for (const button of screen.getAllByRole("button")) expect(button).toBeDisabled();
  });

  it("when the daemon refuses, then its words are an alert beside the options", () => {
    render(
      <PermissionRequest
        view={permissionView(codexPending)}
        state={{
          ...idle,
          error: 'permission request "perm_1" was already resolved by cli: allow-once',
        }}
        onChoose={vi.fn()}
      />,
    );
    expect(screen.getByRole("alert")).toHaveTextContent(
      'permission request "perm_1" was already resolved by cli',
    );
  });

  it("when answered here, then the row says what was chosen and by whom, and takes the focus", () => {
    const view = permissionView(
      answered(codexPending, {
        status: "resolved",
        resolved_by: "web",
        decision: "reject-once",
        option_id: "cancel",
        option_label: "No, and tell Codex what to do differently",
      }),
    );
    render(
      <PermissionRequest view={view} state={{ ...idle, answeredHere: true }} onChoose={vi.fn()} />,
    );
    expect(screen.queryByRole("button")).toBeNull();
    const line = screen.getByText("Rejected").closest("p");
    expect(line).toHaveTextContent(
      "“No, and tell Codex what to do differently” · from the browser",
    );
    expect(line).toHaveFocus();
  });
});
