// Permission part data as the reference daemon folds the recorded Codex and Claude requests
// (server/testing/fixtures/real-agents): shared by the view and component tests.
export const codexPending = {
  type: "permission",
  session_id: "s1",
  turn_id: "turn_1",
  request_id: "perm_1",
  title: "touch /home/user/.agent && echo probe-done",
  tool_call_id: "call_22",
  action: "session/request_permission",
  resource: "execute",
  status: "pending",
  raw: {
    request_id: "perm_1",
    options: [
      {
        decision: "allow-once",
        option_id: "allow_once",
        kind: "allow_once",
        label: "Yes, proceed",
      },
      {
        decision: "allow-always",
        option_id: "accept_execpolicy_amendment",
        kind: "allow_always",
        label: "Yes, and don't ask again for commands that start with `touch /home/user/.agent`",
      },
      {
        decision: "reject-once",
        option_id: "cancel",
        kind: "reject_once",
        label: "No, and tell Codex what to do differently",
      },
    ],
    tool_input: { command: "touch /home/user/.agent && echo probe-done", cwd: "/home/user/.agent" },
    tool_call: {
      id: "call_22",
      kind: "execute",
      title: "touch /home/user/.agent && echo probe-done",
    },
  },
};

export const claudeWritePending = {
  type: "permission",
  turn_id: "turn_2",
  request_id: "perm_2",
  title: "Write notes.md",
  tool_call_id: "toolu_1",
  resource: "edit",
  status: "pending",
  raw: {
    request_id: "perm_2",
    options: [
      { option_id: "allow-once", kind: "allow_once", label: "Yes" },
      { option_id: "reject", kind: "reject_once", label: "No" },
    ],
    tool_input: { file_path: "/p/notes.md", content: "# Notes\nfirst\n" },
    tool_call: {
      id: "toolu_1",
      kind: "edit",
      title: "Write notes.md",
      content: [
        { type: "diff", path: "/p/notes.md", oldText: null, newText: "# Notes\nfirst\n" },
        { type: "content", content: { type: "text", text: "Create the notes file" } },
      ],
    },
  },
};

export function answered(
  data: Record<string, unknown>,
  answer: Record<string, unknown>,
): Record<string, unknown> {
  return { ...data, ...answer };
}
