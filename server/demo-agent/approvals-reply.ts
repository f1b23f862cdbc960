// `/demo approvals`: a reply that asks the person before it edits a file and before it runs
// a command, with options shaped like the real adapters'. The command's options are the
// ones Claude's adapter sent for a Bash call in its default permission mode (the recorded
// `claude-agent-acp-0.101.0.permission-request-manual-mode` frames): "Yes", "Yes, and allow
// … commands", "No"; the edit's follow the same adapter's wording for file edits.
import type { Reply, ToolStep } from "./replies";

const EDITED_FILE = "src/features/context/meter.tsx";
const COMMAND = "npm test -- src/features/context";

const OLD_TEXT = `export function ContextMeter({ view }: { view: MeterView }) {
  return <meter value={view.used} max={view.size} />;
}
`;
const NEW_TEXT = `export function ContextMeter({ view }: { view: MeterView }) {
  return (
    <meter
      aria-label="Context window"
      value={view.used}
      max={view.size}
      aria-valuetext={view.valueText}
    />
  );
}
`;

const EDIT_STEP: ToolStep = {
  title: `Edit ${EDITED_FILE}`,
  toolKind: "edit",
  input: { file_path: EDITED_FILE, old_string: OLD_TEXT, new_string: NEW_TEXT },
  output: `Applied 1 edit to ${EDITED_FILE}`,
  fails: false,
  permission: {
    options: [
      { optionId: "allow-once", name: "Yes", kind: "allow_once" },
      {
        optionId: "allow-always",
        name: "Yes, allow all edits during this session",
        kind: "allow_always",
      },
      { optionId: "reject", name: "No", kind: "reject_once" },
    ],
    content: [{ type: "diff", path: EDITED_FILE, oldText: OLD_TEXT, newText: NEW_TEXT }],
    locations: [{ path: EDITED_FILE }],
  },
};

const COMMAND_STEP: ToolStep = {
  title: COMMAND,
  toolKind: "execute",
  input: { command: COMMAND, description: "Run the context meter's tests" },
  output: " ✓ src/features/context/context-meter.test.tsx (9 tests)\n Tests  9 passed (9)",
  fails: false,
  permission: {
    options: [
      { optionId: "allow-once", name: "Yes", kind: "allow_once" },
      {
        optionId: "allow-with-updates",
        name: "Yes, and don't ask again for npm test commands",
        kind: "allow_always",
      },
      { optionId: "reject", name: "No", kind: "reject_once" },
    ],
    content: [
      { type: "content", content: { type: "text", text: "Run the context meter's tests" } },
    ],
  },
};

function conclude(refused: readonly string[]): string {
  const editRefused = refused.includes(EDIT_STEP.title);
  const commandRefused = refused.includes(COMMAND_STEP.title);
  if (editRefused && commandRefused) {
    return "You declined both, so nothing changed: the meter still has no accessible name. Tell me what you would rather do.";
  }
  if (editRefused) {
    return `You declined the edit, so \`${EDITED_FILE}\` is unchanged; the tests ran against the old meter and pass.`;
  }
  if (commandRefused) {
    return `I gave the meter an accessible name and a value text in \`${EDITED_FILE}\`. You declined the test run: run \`${COMMAND}\` yourself when you are ready.`;
  }
  return `I gave the meter an accessible name and a value text in \`${EDITED_FILE}\`, and the context tests pass (9 of 9).`;
}

export function approvalsReply(): Reply {
  return {
    markdown: conclude([]),
    thought: "The meter needs an accessible name; edit it, then run its tests. Both need approval.",
    tools: [EDIT_STEP, COMMAND_STEP],
    decision: "Give the meter an accessible name and a value text.",
    files: [EDITED_FILE],
    conclude,
  };
}
