// Realistic wire payloads, one per contract shape, shared by contract and component tests.
// Each is what the reference daemon sends for a short session with one compaction.
const T0 = "2026-11-30T08:42:23.120Z";
const T1 = "2026-11-30T08:42:35.480Z";

export const workspace = {
  id: "ws_main",
  name: "tideline",
  root_dir: "/work/tideline",
  created_at: T0,
  updated_at: T1,
};

export const session = {
  id: "ses_7hq2kd",
  workspace_id: "ws_main",
  agent_name: "demo",
  name: "Welcome to Tideline",
  state: "active",
  activity: { turn_id: "turn_4", turn_started_at: T1, kind: "compact" },
  available_commands: [
    {
      name: "compact",
      description: "Summarize the conversation to free context",
      input: { hint: "<optional focus>" },
    },
    { name: "help", description: "List commands", input: null },
    { name: "demo", description: "Run a scenario" },
  ],
  created_at: T0,
  updated_at: T1,
};

export const compactionItem = {
  kind: "compaction",
  compaction_id: "cmp-1",
  status: "completed",
  summary: "## Goal\nShip the meter.\n\n- Decided: SQLite ledger",
  started_at: T0,
  ended_at: T1,
};

export const entries = [
  {
    message: {
      id: "msg_1",
      role: "user",
      parts: [{ type: "text", id: "msg_1:0", text: "Add a context meter" }],
    },
    start_sequence: 3,
    sequence: 3,
  },
  {
    message: {
      id: "msg_2",
      role: "assistant",
      parts: [
        { type: "reasoning", id: "msg_2:r", text: "The meter reads usage.", state: "done" },
        { type: "text", id: "msg_2:0", text: "Done. **Meter** added.", state: "done" },
      ],
    },
    start_sequence: 4,
    sequence: 9,
  },
  {
    message: {
      id: "tool_read_1",
      role: "assistant",
      parts: [
        {
          type: "tool-read",
          toolCallId: "read_1",
          title: "Read src/meter.tsx",
          state: "output-error",
          input: { path: "src/meter.tsx" },
          errorText: "ENOENT",
        },
      ],
    },
    start_sequence: 10,
    sequence: 11,
  },
  {
    message: {
      id: "compaction_cmp-1",
      role: "system",
      parts: [{ type: "data-compozy-compaction", id: "cmp-1", data: compactionItem }],
    },
    start_sequence: 12,
    sequence: 16,
  },
  {
    message: {
      id: "evt_17",
      role: "system",
      metadata: { turn_id: "turn_4" },
      parts: [
        {
          type: "data-compozy-event",
          id: "evt_17",
          data: { type: "plan", entries: [{ content: "Write tests", status: "pending" }] },
        },
      ],
    },
    start_sequence: 17,
    sequence: 17,
  },
];

export const transcriptPage = {
  entries,
  epoch: "ep_3kq",
  generation: 0,
  max_sequence: 17,
  has_older: true,
  next_before_sequence: 3,
  limit: 200,
};

export const ledgerEvent = {
  id: "ses_7hq2kd:12",
  session_id: "ses_7hq2kd",
  sequence: 12,
  turn_id: "turn_4",
  type: "compaction",
  content: {
    schema: "compozy.session.event.v1",
    type: "compaction",
    compaction_id: "cmp-1",
    status: "in_progress",
    timestamp: T0,
  },
};

export const usage = {
  context: {
    state: "reported",
    used: 89_700,
    size: 256_000,
    ratio: 89_700 / 256_000,
    size_source: "agent",
    sequence: 20,
    reported_turn_id: "turn_5",
    reported_at: T1,
  },
  input_tokens: 12_000,
  output_tokens: 3_400,
  total_tokens: 15_400,
  cache_read_tokens: 800,
  total_cost: 0.42,
  cost_currency: "USD",
  turn_count: 5,
};

export const unknownUsage = {
  context: { state: "unknown", cleared_by: { compaction_id: "cmp-1", sequence: 16 } },
  turn_count: 4,
};

export const usageTurns = {
  turns: [
    {
      turn_id: "turn_1",
      sequence: 9,
      usage: {
        input_tokens: 1000,
        output_tokens: 200,
        cache_read_tokens: 800,
        context_used: 180_000,
        context_size: 200_000,
        cost_amount: 0.01,
        cost_currency: "USD",
        timestamp: T0,
      },
    },
    { turn_id: "turn_2", sequence: 11 },
  ],
  compactions: [
    {
      turn_id: "turn_4",
      sequence: 12,
      at: T0,
      compaction_id: "cmp-1",
      trigger: "agent",
      status: "completed",
      context_used: 180_000,
      context_size: 200_000,
      context_after: { used: 42_000, size: 200_000, sequence: 20 },
    },
  ],
};
