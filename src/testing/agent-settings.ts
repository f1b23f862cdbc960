// A session's agent settings as the reference daemon reports Claude's recorded ones
// (`modes`, `config_options`, `model`): shared by the view and component tests.
export const claudeSettings = {
  modes: {
    current_mode_id: "default",
    available_modes: [
      { id: "default", name: "Manual", description: "Always ask before making changes" },
      {
        id: "acceptEdits",
        name: "Accept edits",
        description: "Automatically accept all file edits",
      },
      { id: "plan", name: "Plan", description: "Create a plan before making changes" },
      { id: "auto", name: "Auto", description: "Claude handles permission decisions" },
    ],
  },
  config_options: [
    {
      id: "mode",
      label: "Mode",
      kind: "select",
      category: "mode",
      current: "default",
      values: [
        { value: "default", label: "Manual" },
        { value: "plan", label: "Plan" },
      ],
    },
    {
      id: "model",
      label: "Model",
      description: "AI model to use",
      kind: "select",
      category: "model",
      current: "default",
      values: [
        { value: "default", label: "Default (recommended)" },
        { value: "opus", label: "Opus 5.5" },
        { value: "sonnet", label: "Sonnet 5.5" },
      ],
    },
    { id: "fast", label: "Fast mode", kind: "boolean", current: "false" },
  ],
  model: "claude-opus-5-5",
};
