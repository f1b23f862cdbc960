// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { claudeSettings } from "../../testing/agent-settings";
import { AgentControls, type AgentControlsState } from "./agent-controls";
import { agentControlsView } from "./agent-controls-view";

const idle: AgentControlsState = { setting: undefined, error: undefined };

describe("AgentControls", () => {
  it("when the session has modes, then the current mode shows and a new one is sent by keyboard", async () => {
    const user = userEvent.setup();
    const onSetMode = vi.fn();
    render(
      <AgentControls
        view={agentControlsView(claudeSettings)}
        state={idle}
        onSetMode={onSetMode}
        onSetConfig={vi.fn()}
      />,
    );
    expect(screen.getByRole("group", { name: "Agent settings" })).toBeInTheDocument();
    const mode = screen.getByRole("combobox", { name: "Mode" });
    expect(mode).toHaveDisplayValue("Manual");
    expect(mode).toHaveAccessibleDescription("Always ask before making changes");
    await user.selectOptions(mode, "Plan");
    expect(onSetMode).toHaveBeenCalledWith("plan");
  });

  it("when the agent offers a model option and a boolean, then both can be set; the reported model is shown", async () => {
    const user = userEvent.setup();
    const onSetConfig = vi.fn();
    render(
      <AgentControls
        view={agentControlsView(claudeSettings)}
        state={idle}
        onSetMode={vi.fn()}
        onSetConfig={onSetConfig}
      />,
    );
    await user.selectOptions(screen.getByRole("combobox", { name: "Model" }), "Opus 5.5");
    expect(onSetConfig).toHaveBeenCalledWith("model", "opus");
    await user.click(screen.getByRole("checkbox", { name: "Fast mode" }));
    expect(onSetConfig).toHaveBeenCalledWith("fast", true);
    expect(screen.getByText("claude-opus-5-5")).toBeInTheDocument();
  });

  it("when a change is under way, then the controls wait; a refusal is shown in the daemon's words", () => {
    render(
      <AgentControls
        view={agentControlsView(claudeSettings)}
        state={{ setting: "mode", error: 'the agent did not accept mode "x"' }}
        onSetMode={vi.fn()}
        onSetConfig={vi.fn()}
      />,
    );
    expect(screen.getByRole("combobox", { name: "Mode" })).toBeDisabled();
    expect(screen.getByRole("combobox", { name: "Model" })).toBeDisabled();
    expect(screen.getByRole("alert")).toHaveTextContent('the agent did not accept mode "x"');
  });

  it("when the agent reports nothing, then there is no control at all", () => {
    const { container } = render(
      <AgentControls
        view={agentControlsView({})}
        state={idle}
        onSetMode={vi.fn()}
        onSetConfig={vi.fn()}
      />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
