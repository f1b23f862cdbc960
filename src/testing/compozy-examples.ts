// One realistic payload per contract shape, written from CompozyOS's Go types, builders
// and tests (`internal/api/contract`, `internal/transcript/ui_messages*.go`) and the
// October "Context compaction" release. They use what CompozyOS really sends: numeric
// epochs, user text parts and event parts without ids, tool parts with and without a
// title, `turn_id: ""` on session-level rows, optional fields absent. Shared by the
// contract tests, the SPA's component tests and the daemon's contract checks.

const T0 = "2026-10-08T14:01:02Z";
const T1 = "2026-10-08T14:02:11.482913Z";
const T2 = "2026-10-08T14:02:39Z";
const T3 = "2026-10-08T14:03:05.2+02:00";

export const SESSION_ID = "01JD8K3M5V7XQ2R9T4W6Y8Z0AB";
export const WORKSPACE_ID = "ws_01JD8K0000BILLING";
export const TURN_ID = "t_42";
export const COMPACTION_ID = "c1f0b8f4-6a1e-4c55-9d0e-2b7f3f0c9a10";

const workspace = {
  id: WORKSPACE_ID,
  name: "billing",
  root_dir: "/home/dev/billing",
  add_dirs: [],
  created_at: T0,
  updated_at: T0,
};

export const workspaceList = { workspaces: [workspace] };

/** An active session in a turn: every field CompozyOS always sends, plus a few optional. */
export const session = {
  id: SESSION_ID,
  workspace_id: WORKSPACE_ID,
  workspace_path: "/home/dev/billing",
  agent_name: "claude",
  name: "Ledger migration",
  type: "user",
  state: "active",
  activity: {
    turn_id: TURN_ID,
    turn_source: "user",
    turn_started_at: T1,
    elapsed_ms: 12_480,
    elapsed_seconds: 12,
    idle_seconds: 0,
    iteration_current: 1,
    iteration_max: 0,
    last_activity_at: T1,
    last_activity_kind: "tool_call",
    current_tool: "Read",
  },
  available_commands: [
    { name: "compact", description: "Summarize the conversation", input: null },
    { name: "review", description: "Review changes", input: { hint: "<path>" } },
  ],
  archived_at: null,
  attachable: false,
  badge: "working",
  pending_interactions: [],
  runtime: {
    status: "ready",
    selection_revision: 3,
    acp_session_id: "acp-7f2c",
    acp_caps: {
      supports_load_session: true,
      prompt_image: true,
      prompt_audio: false,
      prompt_embedded_context: true,
    },
  },
  transcript_epoch: 2,
  created_at: T0,
  updated_at: T2,
};

/** A stopped, archived session as an older CompozyOS sends it: no workspace id, nulls. */
export const archivedSession = {
  id: "01JD8P1Q2R3S4T5V6W7X8Y9Z0C",
  agent_name: "codex",
  state: "stopped",
  stop_reason: "completed",
  activity: null,
  available_commands: null,
  archived_at: T2,
  attachable: false,
  badge: "",
  pending_interactions: [],
  runtime: { status: "stopped", selection_revision: 0 },
  created_at: T0,
  updated_at: T2,
};

export const sessionList = {
  sessions: [session],
  page: { has_more: true, limit: 1, next_cursor: "eyJvIjoxfQ", total: 2 },
};

export const sessionEnvelope = { session };

export const createSessionBody = { workspace: WORKSPACE_ID, agent_name: "claude", name: "Ledger" };
export const renameSessionBody = { name: "Ledger migration, part 2" };

export const promptBody = {
  message: "Migrate the refunds table to the ledger API",
  message_id: "msg_01JD8M0Q4R2S6T8V0W2X4Y6Z8C",
  idempotency_key: "idem_01JD8M0Q4R2S6T8V0W2X4Y6Z8D",
};

/** 200: accepted for direct delivery. */
export const promptResult = {
  prompt: {
    status: "accepted",
    delivery: "direct",
    message_id: promptBody.message_id,
    idempotency_key: promptBody.idempotency_key,
    replayed: false,
    new_turn_id: "t_43",
  },
};

/** 202: the same idempotency key sent again, answered from the first send. */
export const promptResultReplayed = {
  prompt: { ...promptResult.prompt, replayed: true },
};

/** 202: queued behind the running turn (mode "queue"). */
export const promptResultQueued = {
  prompt: {
    status: "queued",
    mode: "queue",
    delivery: "after_turn",
    message_id: "msg_2",
    idempotency_key: "idem_2",
    replayed: false,
    queue_entry_id: "qe_1",
    queue_position: 1,
    queue_generation: 4,
    estimated_send_at: null,
  },
};

export const cancelResult = { session_id: SESSION_ID, outcome: "canceled", turn_id: TURN_ID };
export const cancelNothing = { session_id: SESSION_ID, outcome: "nothing-in-flight" };

export const approveBody = { decision: "allow-once", request_id: "perm_1", turn_id: TURN_ID };
export const approveResult = {
  decision: "allow-once",
  outcome: "resolved",
  request_id: "perm_1",
  interaction_id: "int_1",
  resolved_decision: "allow-once",
};

export const sessionCommands = {
  commands: [
    {
      id: "agent:compact",
      canonical_token: "/compact",
      display_name: "compact",
      description: "Summarize the conversation",
      lane: "agent",
      source: { kind: "agent", scope: "session" },
      placements: ["standalone"],
      available: true,
    },
    {
      id: "agent:review",
      canonical_token: "/review",
      display_name: "review",
      description: "Review changes",
      lane: "agent",
      source: { kind: "agent", scope: "session" },
      placements: ["standalone", "inline"],
      input_hint: "<path>",
      available: false,
      unavailable_reason: "session is busy",
    },
  ],
  revision: "r-9f3a",
};

export const compactBody = {};
export const compactAccepted = {
  session_id: SESSION_ID,
  prompt_id: "01JD8M0Q4R2S6T8V0W2X4Y6Z8C",
  command: "compact",
  status: "accepted",
};

export const errorBusy = { error: "session: prompt already in progress", code: "session_busy" };
export const errorWithDiagnostic = {
  error: "store: session prompt idempotency conflict",
  code: "prompt_idempotency_conflict",
  details: { idempotency_key: "idem_1" },
  diagnostic: {
    id: "diag_1",
    category: "session",
    code: "prompt_idempotency_conflict",
    title: "Idempotency key reused",
    message: "idempotency_key is already bound to another request",
    severity: "error",
    data_freshness: "live",
  },
};

export const derivePreview = {
  message_count: 214,
  replay_bytes: 196_608,
  truncated: true,
  omitted_count: 212,
};

// Transcript parts, one per type the builders produce.
export const parts = {
  userText: {
    type: "text",
    text: "Migrate the billing service to the new ledger API",
    state: "done",
  },
  userFile: {
    type: "file",
    mediaType: "image/png",
    url: "compozy://session-attachments/att_01",
    filename: "schema.png",
  },
  assistantText: {
    type: "text",
    id: "msg_a1-text-1",
    text: "I'll start with **invoices**.",
    state: "done",
  },
  streamingText: { type: "text", id: "msg_a1-text-2", text: "Now refunds", state: "streaming" },
  reasoning: {
    type: "reasoning",
    id: "msg_a1-reasoning-1",
    text: "The ledger API needs idempotent writes.",
    state: "done",
  },
  toolWithTitle: {
    type: "tool-read",
    toolCallId: "call_read_1",
    title: "Read internal/billing/invoice.go",
    state: "output-available",
    input: { path: "internal/billing/invoice.go" },
    output: { content: "package billing" },
  },
  toolWithoutTitle: {
    type: "tool-execute",
    toolCallId: "call_exec_1",
    state: "input-streaming",
  },
  toolError: {
    type: "tool-edit",
    toolCallId: "call_edit_1",
    title: "Edit refunds.go",
    state: "output-error",
    input: { path: "refunds.go" },
    rawInput: { file_path: "refunds.go", old_string: "a", new_string: "b" },
    errorText: "file changed on disk",
  },
  dynamicTool: {
    type: "dynamic-tool",
    toolName: "mcp__linear__create_issue",
    toolCallId: "call_mcp_1",
    state: "input-available",
    input: { title: "Ledger cut-over" },
  },
  permission: {
    type: "data-compozy-permission",
    id: "perm_1",
    data: {
      type: "permission",
      session_id: SESSION_ID,
      turn_id: TURN_ID,
      request_id: "perm_1",
      title: "Run go test ./...",
      tool_call_id: "call_exec_1",
      action: "execute",
      decision: "allow-once",
      timestamp: T1,
    },
  },
  event: {
    type: "data-compozy-event",
    data: {
      type: "plan",
      turn_id: TURN_ID,
      timestamp: T1,
      raw: { entries: [{ content: "Migrate invoices", status: "completed" }] },
    },
  },
  compactionCompleted: {
    type: "data-compozy-compaction",
    id: COMPACTION_ID,
    data: {
      kind: "compaction",
      compaction_id: COMPACTION_ID,
      status: "completed",
      summary: "The billing migration moved invoices and refunds to the ledger API …",
      started_at: T1,
      ended_at: T2,
    },
  },
  compactionPaused: {
    type: "data-compozy-compaction",
    id: "cmp-paused",
    data: { kind: "compaction", compaction_id: "cmp-paused", status: "_paused", started_at: T1 },
  },
} as const;

export const entries = [
  {
    message: {
      id: "in_01",
      role: "user",
      metadata: { turn_id: TURN_ID, message_id: "msg_u1" },
      parts: [parts.userFile, parts.userText],
    },
    start_sequence: 901,
    sequence: 901,
  },
  {
    message: {
      id: "msg_a1",
      role: "assistant",
      parts: [
        parts.reasoning,
        parts.assistantText,
        parts.toolWithTitle,
        parts.event,
        parts.toolWithoutTitle,
        parts.toolError,
        parts.dynamicTool,
        parts.permission,
        parts.streamingText,
      ],
    },
    start_sequence: 902,
    sequence: 916,
  },
  {
    message: {
      id: `compaction_${COMPACTION_ID}`,
      role: "system",
      parts: [parts.compactionCompleted],
    },
    start_sequence: 917,
    sequence: 919,
  },
  {
    message: { id: "marker_01", role: "assistant", parts: [parts.event] },
    start_sequence: 920,
    sequence: 920,
  },
];

/** An entry whose message has `parts: null` (a Go nil slice). */
export const entryNullParts = {
  message: { id: "msg_empty", role: "assistant", parts: null },
  start_sequence: 921,
  sequence: 921,
};

export const transcriptPage = {
  entries,
  epoch: 2,
  generation: 7,
  max_sequence: 920,
  has_older: true,
  next_before_sequence: 901,
  limit: 200,
};

export const transcriptSnapshot = {
  session_id: SESSION_ID,
  workspace_id: WORKSPACE_ID,
  epoch: 2,
  generation: 7,
  entries,
  max_sequence: 920,
  has_older: false,
  reset: false,
};

export const transcriptSnapshotReset = {
  ...transcriptSnapshot,
  reset: true,
  reason: "fence_missing",
};

export const transcriptDelta = {
  session_id: SESSION_ID,
  workspace_id: WORKSPACE_ID,
  epoch: 2,
  generation: 7,
  entries: [entries[2]],
  cursor: 919,
  max_sequence: 920,
  has_more: false,
};

export const commandsChanged = { session_id: SESSION_ID, revision: "r-9f3b" };

/** As CompozyOS writes it: no id, sequence 0, empty turn and agent, no content. */
export const sessionStopped = {
  id: "",
  session_id: SESSION_ID,
  sequence: 0,
  turn_id: "",
  type: "session_stopped",
  agent_name: "",
  workspace_id: WORKSPACE_ID,
  spawn_depth: 0,
  content: null,
  stop_reason: "user_canceled",
  timestamp: T3,
};

const eventBase = {
  session_id: SESSION_ID,
  agent_name: "claude",
  workspace_id: WORKSPACE_ID,
  spawn_depth: 0,
};

const compactionRowInProgress = {
  ...eventBase,
  id: "evt_917",
  sequence: 917,
  turn_id: TURN_ID,
  type: "compaction",
  content: {
    schema: "compozy.session.event.v1",
    type: "compaction",
    compaction_id: COMPACTION_ID,
    status: "in_progress",
    timestamp: T1,
  },
  timestamp: T1,
};

export const compactionFired = {
  ...eventBase,
  id: "evt_918",
  sequence: 918,
  turn_id: TURN_ID,
  type: "session.compaction_fired",
  content: {
    schema: "compozy.session.event.v1",
    type: "session.compaction_fired",
    raw: {
      compaction_id: COMPACTION_ID,
      trigger: "agent",
      context_used: 171_204,
      context_size: 200_000,
    },
    timestamp: T1,
  },
  timestamp: T1,
};

/** Fired with no earlier context reading: the figures are null. */
export const compactionFiredUnknownContext = {
  ...compactionFired,
  id: "evt_930",
  sequence: 930,
  content: {
    ...compactionFired.content,
    raw: { compaction_id: "cmp-2", trigger: "requested", context_used: null, context_size: null },
  },
};

export const compactionRowCompleted = {
  ...eventBase,
  id: "evt_919",
  sequence: 919,
  turn_id: TURN_ID,
  type: "compaction",
  content: {
    schema: "compozy.session.event.v1",
    type: "compaction",
    compaction_id: COMPACTION_ID,
    status: "completed",
    summary: "The billing migration moved invoices and refunds to the ledger API …",
    terminal: true,
    timestamp: T2,
  },
  timestamp: T2,
};

/** A session-level row outside any turn. */
const sessionLevelEvent = {
  ...eventBase,
  id: "evt_2",
  sequence: 2,
  turn_id: "",
  type: "session_started",
  content: { schema: "compozy.session.event.v1", type: "session_started", timestamp: T0 },
  timestamp: T0,
};

export const eventList = {
  events: [sessionLevelEvent, compactionRowInProgress, compactionFired, compactionRowCompleted],
};

export const history = {
  history: [
    { turn_id: "", events: [sessionLevelEvent] },
    {
      turn_id: TURN_ID,
      events: [compactionRowInProgress, compactionFired, compactionRowCompleted],
    },
  ],
};

export const usage = {
  usage: {
    context: {
      state: "reported",
      used: 42_000,
      size: 200_000,
      ratio: 0.21,
      size_source: "agent",
      sequence: 931,
      reported_turn_id: "t_43",
      reported_at: T3,
    },
    input_tokens: 512_000,
    output_tokens: 18_400,
    total_tokens: 530_400,
    total_cost: 1.92,
    cost_currency: "USD",
    cost_status: "actual",
    cost_source: "agent_reported",
    turn_count: 43,
  },
};

/** After a terminal compaction and before a new reading: state unknown, no figures. */
export const usageAfterCompaction = {
  usage: {
    context: { state: "unknown", cleared_by: { compaction_id: COMPACTION_ID, sequence: 919 } },
    input_tokens: 498_000,
    output_tokens: 17_900,
    total_tokens: 515_900,
    turn_count: 42,
  },
};

/** CompozyOS before the October release: no context object, counters may be null. */
export const usageWithoutContext = {
  usage: { input_tokens: null, output_tokens: null, total_tokens: null, turn_count: 0 },
};

export const usageTurns = {
  turns: [
    {
      turn_id: TURN_ID,
      sequence: 916,
      usage: {
        input_tokens: 9_000,
        output_tokens: 800,
        context_used: 171_204,
        context_size: 200_000,
        timestamp: T1,
      },
    },
    {
      turn_id: "t_43",
      sequence: 931,
      usage: { context_used: 42_000, context_size: 200_000, timestamp: T3 },
    },
    { turn_id: "t_44", sequence: 940 },
  ],
  compactions: [
    {
      turn_id: TURN_ID,
      sequence: 919,
      at: T2,
      compaction_id: COMPACTION_ID,
      trigger: "agent",
      status: "completed",
      context_used: 171_204,
      context_size: 200_000,
    },
    {
      turn_id: "t_45",
      sequence: 950,
      at: T3,
      compaction_id: "cmp-2",
      trigger: "requested",
      status: "in_progress",
    },
  ],
};

export const health = { status: "ok", version: "0.2.0" };
