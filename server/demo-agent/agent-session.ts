// One live session inside the agent process: its state, its channel to the client, the queue
// that runs its turns (and between-turn compactions) one at a time, and what cancels them.
import type { McpServer } from "@agentclientprotocol/sdk";
import type { ConversationState } from "./conversation-state";
import type { AgentOptions } from "./options";
import type { Pace } from "./pace";
import type { SessionChannel } from "./session-channel";

export type AgentSession = {
  state: ConversationState;
  channel: SessionChannel;
  /** Tail of the work queue: each turn or idle compaction chains onto it. */
  queue: Promise<void>;
  /** Aborted by `session/cancel`; null while nothing runs. */
  running: AbortController | null;
  /**
   * The prompts accepted and not yet answered, each with the controller its turn will run
   * under: a `session/cancel` that comes while a prompt still waits for the queue cancels
   * it too, so the turn it starts ends at once as cancelled.
   */
  prompts: Set<AbortController>;
  /** The MCP servers the client gave this session (`/demo tool` calls them). */
  mcpServers: readonly McpServer[];
};

/** What turns need from the process around them. */
export type AgentDeps = {
  options: AgentOptions;
  pace: Pace;
  /** Whether the client advertised `clientCapabilities.session.compaction` (non-null). */
  capability: boolean;
  save(state: ConversationState): void;
  /** Ends the process (`/demo crash`). */
  exit(code: number): never;
  log(message: string): void;
};

export function createAgentSession(
  state: ConversationState,
  channel: SessionChannel,
  mcpServers: readonly McpServer[] = [],
): AgentSession {
  return {
    state,
    channel,
    queue: Promise.resolve(),
    running: null,
    prompts: new Set(),
    mcpServers,
  };
}

/** Resolves after every microtask queued so far: a response just returned is on the wire queue. */
function afterPendingResponses(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs `work` after everything already queued for the session, under `controller` (a fresh
 * one unless given) that `session/cancel` aborts. It starts a macrotask later, so the
 * response of the request that queued it, or of the turn before it, is written first:
 * frames never overtake one.
 */
export function runExclusive<T>(
  session: AgentSession,
  work: (signal: AbortSignal) => Promise<T>,
  controller = new AbortController(),
): Promise<T> {
  const result = session.queue.then(async () => {
    await afterPendingResponses();
    session.running = controller;
    try {
      return await work(controller.signal);
    } finally {
      session.running = null;
    }
  });
  session.queue = result.then(
    () => undefined,
    () => undefined,
  );
  return result;
}

/** `session/cancel`: what runs now and every prompt still waiting to run. */
export function cancelSession(session: AgentSession): void {
  session.running?.abort();
  for (const prompt of session.prompts) prompt.abort();
}

/** Sends the session's context reading (unless `/demo no-usage` switched it off). */
export async function reportUsage(deps: AgentDeps, session: AgentSession): Promise<void> {
  const { state } = session;
  if (!state.reportsUsage) return;
  await session.channel.send({
    sessionUpdate: "usage_update",
    used: state.contextUsed,
    size: deps.options.contextSize,
    cost: { amount: state.costUsd, currency: "USD" },
  });
}
