// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../api/http";
import { NewSessionDialog } from "./new-session-dialog";
import { agentLabel, agentsProblem, createBody, initialAgent } from "./new-session-dialog-view";

const agents = [
  { name: "claude", isDefault: true, preset: "claude" },
  { name: "codex", isDefault: false, preset: "codex" },
  { name: "mine", isDefault: false, preset: undefined },
];

function renderDialog(overrides: Partial<Parameters<typeof NewSessionDialog>[0]> = {}) {
  const props = {
    open: true,
    agents,
    agentsError: undefined,
    creating: false,
    error: undefined,
    onCreate: vi.fn(),
    onClose: vi.fn(),
    ...overrides,
  };
  render(<NewSessionDialog {...props} />);
  return props;
}

describe("NewSessionDialog", () => {
  it("when opened, then the configured agents are offered with the default picked", () => {
    renderDialog();
    const dialog = screen.getByRole("dialog", { name: "New session" });
    expect(dialog).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: /claude · Claude Code/ })).toBeChecked();
    expect(screen.getByRole("radio", { name: "codex" })).not.toBeChecked();
    expect(screen.getByRole("radio", { name: "mine" })).toBeInTheDocument();
  });

  it("when another agent and a name are chosen by keyboard, then Create sends both", async () => {
    const user = userEvent.setup();
    const props = renderDialog();
    await user.click(screen.getByRole("radio", { name: /claude/ }));
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("radio", { name: "codex" })).toBeChecked();
    await user.type(screen.getByRole("textbox", { name: "Name (optional)" }), "  Fix the build  ");
    await user.keyboard("{Enter}");
    expect(props.onCreate).toHaveBeenCalledWith({ agent_name: "codex", name: "Fix the build" });
  });

  it("when Cancel is pressed, then it closes without creating", async () => {
    const user = userEvent.setup();
    const props = renderDialog();
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(props.onClose).toHaveBeenCalled();
    expect(props.onCreate).not.toHaveBeenCalled();
  });

  it("when the daemon refuses or the agents can't load, then its words are shown", () => {
    renderDialog({ error: 'agent "x" is not configured' });
    expect(screen.getByRole("alert")).toHaveTextContent('agent "x" is not configured');
  });

  it("when agents fail to load, then it says so and Create uses the daemon's default agent", async () => {
    const user = userEvent.setup();
    const props = renderDialog({
      agents: undefined,
      agentsError: agentsProblem(new ApiError("The daemon answered 500.", { status: 500 })),
    });
    expect(screen.getByRole("alert")).toHaveTextContent(
      "Couldn't load the agents (The daemon answered 500). The session will start with the daemon's default agent.",
    );
    await user.click(screen.getByRole("button", { name: "Create session" }));
    expect(props.onCreate).toHaveBeenCalledWith({});
  });

  it("when the daemon can't be reached, then the notice says so in one sentence, without a double stop", () => {
    const text = agentsProblem(
      new ApiError("Couldn't reach the daemon.", { status: 0, code: "network" }),
    );
    renderDialog({ agents: undefined, agentsError: text });
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("Couldn't reach the daemon, so its agents can't be listed.");
    expect(alert.textContent).not.toMatch(/\.\./);
    expect(alert).not.toHaveTextContent("default agent");
  });

  it("when the daemon lists no agents, then Create uses its default agent", async () => {
    const user = userEvent.setup();
    const props = renderDialog({ agents: [] });
    expect(screen.getByText(/lists no agents/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Create session" }));
    expect(props.onCreate).toHaveBeenCalledWith({});
  });

  it("while the agents load, then Create waits for them", () => {
    renderDialog({ agents: undefined });
    expect(screen.getByText("Loading agents…")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Create session" })).toBeDisabled();
  });

  it("when creating, then Create waits", () => {
    renderDialog({ creating: true });
    expect(screen.getByRole("button", { name: "Create session" })).toHaveAttribute(
      "aria-busy",
      "true",
    );
  });
});

describe("new session view", () => {
  it("when a preset's name is its product, then the label is not doubled", () => {
    expect(agentLabel({ name: "codex", isDefault: false, preset: "codex" })).toBe("codex");
    expect(agentLabel({ name: "work", isDefault: false, preset: "claude" })).toBe(
      "work · Claude Code",
    );
    expect(agentLabel({ name: "x", isDefault: false, preset: "unknown" })).toBe("x");
  });
  it("when no agent is the default, then the first is picked; none, nothing", () => {
    expect(initialAgent([{ name: "a", isDefault: false, preset: undefined }])).toBe("a");
    expect(initialAgent([])).toBeUndefined();
  });
  it("when the name is blank, then it is left out; a long one is cut to 200", () => {
    expect(createBody("a", "   ")).toEqual({ agent_name: "a" });
    expect(createBody(undefined, "x".repeat(300)).name).toHaveLength(200);
  });
});
