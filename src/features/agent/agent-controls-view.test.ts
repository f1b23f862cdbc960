import { describe, expect, it } from "vitest";
import { claudeSettings } from "../../testing/agent-settings";
import { agentControlsView, groupedChoices, isUnlisted } from "./agent-controls-view";

describe("agentControlsView", () => {
  it("when Claude reports modes and options, then the mode is shown once, as the mode", () => {
    const view = agentControlsView(claudeSettings);
    expect(view.mode?.current).toBe("default");
    expect(view.mode?.choices.map((choice) => choice.name)).toEqual([
      "Manual",
      "Accept edits",
      "Plan",
      "Auto",
    ]);
    expect(view.options.map((option) => option.id)).toEqual(["model", "fast"]);
    expect(view.options[1]).toMatchObject({ kind: "boolean", current: false });
  });

  it("when the reported model differs from the model option's value, then it is shown beside it", () => {
    expect(agentControlsView(claudeSettings).model).toBe("claude-opus-5-5");
    const same = { ...claudeSettings, model: "default" };
    expect(agentControlsView(same).model).toBeUndefined();
  });

  it("when there are no modes, then a mode config option is a plain option", () => {
    const view = agentControlsView({ config_options: claudeSettings.config_options });
    expect(view.mode).toBeUndefined();
    expect(view.options.map((option) => option.id)).toEqual(["mode", "model", "fast"]);
  });

  it("when settings are hostile or empty, then nothing breaks and nothing is invented", () => {
    expect(agentControlsView({})).toEqual({ mode: undefined, options: [], model: undefined });
    const view = agentControlsView({
      modes: { current_mode_id: 3, available_modes: [null, { id: "" }, { id: "a" }, { id: "a" }] },
      config_options: [
        null,
        { id: "x", kind: "select", values: [] },
        { id: "y", kind: "slider" },
        { kind: "boolean" },
      ],
      model: 42,
    });
    expect(view.mode).toEqual({
      current: "",
      choices: [{ id: "a", name: "a", description: undefined }],
    });
    expect(view.options).toEqual([]);
    expect(view.model).toBeUndefined();
    expect(agentControlsView({ modes: "x", config_options: "y" }).mode).toBeUndefined();
  });
});

describe("groupedChoices and isUnlisted", () => {
  it("when values carry groups, then consecutive ones share an optgroup", () => {
    const groups = groupedChoices([
      { value: "a", label: "A", group: undefined },
      { value: "b", label: "B", group: "Fast" },
      { value: "c", label: "C", group: "Fast" },
    ]);
    expect(groups.map(([group, choices]) => [group, choices.length])).toEqual([
      [undefined, 1],
      ["Fast", 2],
    ]);
  });
  it("when the current value is not offered, then it is unlisted", () => {
    expect(isUnlisted("z", [{ value: "a" }])).toBe(true);
    expect(isUnlisted("a", [{ value: "a" }])).toBe(false);
    expect(isUnlisted("", [{ value: "a" }])).toBe(false);
  });
});
