// Streams a reply onto the wire: a thought, tool calls (each in_progress, then completed or
// failed; one that needs approval is pending until the person answers `session/request_permission`),
// then the Markdown message in chunks under one messageId. Each part goes into the
// session history as it is sent, and its tokens are counted even when a cancel cuts it short.
import type { AgentDeps, AgentSession } from "./agent-session";
import { estimateTokens } from "./context-usage";
import { type HistoryEntry, nextId } from "./conversation-state";
import { TurnCancelled } from "./pace";
import { chunkText, type PermissionAsk, type Reply, type ToolStep } from "./replies";
import { textBlock } from "./session-channel";

const CHUNK_BEAT_MS = 40;
const TOOL_BEAT_MS = 400;
/** What Claude's adapter reports for a refused tool (recorded frames). */
export const REFUSED_OUTPUT = "User refused permission to run tool";

export type Produced = { output: number; thought: number };

/** Streams one message or thought in chunks; counts what was sent, even when cut short. */
async function streamMessage(
  deps: AgentDeps,
  session: AgentSession,
  kind: "agent" | "thought",
  text: string,
  chunkSize: number,
  signal: AbortSignal,
  produced: Produced,
): Promise<void> {
  const { state, channel } = session;
  const entry: Extract<HistoryEntry, { kind: "agent" | "thought" }> = {
    kind,
    messageId: nextId(state, "message"),
    text: "",
  };
  state.history.push(entry);
  try {
    for (const chunk of chunkText(text, chunkSize)) {
      await deps.pace.beat(CHUNK_BEAT_MS, signal);
      await channel.send({
        sessionUpdate: kind === "agent" ? "agent_message_chunk" : "agent_thought_chunk",
        messageId: entry.messageId,
        content: textBlock(chunk),
      });
      entry.text += chunk;
    }
  } finally {
    // A message cut short still counts what reached the client.
    produced[kind === "agent" ? "output" : "thought"] += estimateTokens(entry.text);
  }
}

type Answer = "allowed" | "refused" | "cancelled";

/** Rejects as TurnCancelled when the turn is cancelled (a client that never answers). */
function whenAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const cancel = () => reject(new TurnCancelled());
    if (signal.aborted) cancel();
    else signal.addEventListener("abort", cancel, { once: true });
  });
}

/** Asks the person; an option id the agent did not offer counts as a refusal. */
async function askPermission(
  session: AgentSession,
  toolCallId: string,
  tool: ToolStep & { permission: PermissionAsk },
  signal: AbortSignal,
): Promise<Answer> {
  const response = await Promise.race([
    session.channel.requestPermission({
      toolCall: {
        toolCallId,
        title: tool.title,
        kind: tool.toolKind,
        status: "pending",
        rawInput: tool.input,
        ...(tool.permission.content ? { content: tool.permission.content } : {}),
        ...(tool.permission.locations ? { locations: tool.permission.locations } : {}),
      },
      options: tool.permission.options,
    }),
    whenAborted(signal),
  ]);
  if (response.outcome.outcome === "cancelled") return "cancelled";
  const { optionId } = response.outcome;
  const chosen = tool.permission.options.find((option) => option.optionId === optionId);
  return chosen?.kind === "allow_once" || chosen?.kind === "allow_always" ? "allowed" : "refused";
}

/** Runs one tool call; resolves `false` when the person refused it. */
async function runTool(
  deps: AgentDeps,
  session: AgentSession,
  tool: ToolStep,
  signal: AbortSignal,
  produced: Produced,
): Promise<boolean> {
  const { state, channel } = session;
  const toolCallId = nextId(state, "toolCall");
  const { permission } = tool;
  await deps.pace.beat(CHUNK_BEAT_MS, signal);
  await channel.send({
    sessionUpdate: "tool_call",
    toolCallId,
    title: tool.title,
    kind: tool.toolKind,
    // Like the real adapters: a call waiting for approval is `pending` until answered.
    status: permission ? "pending" : "in_progress",
    rawInput: tool.input,
    ...(permission?.content ? { content: permission.content } : {}),
    ...(permission?.locations ? { locations: permission.locations } : {}),
  });
  let status: "completed" | "failed" = tool.fails ? "failed" : "completed";
  let output = tool.output;
  let allowed = true;
  try {
    if (permission) {
      const answer = await askPermission(session, toolCallId, { ...tool, permission }, signal);
      if (answer === "cancelled") throw new TurnCancelled();
      allowed = answer === "allowed";
      if (allowed) {
        await channel.send({
          sessionUpdate: "tool_call_update",
          toolCallId,
          status: "in_progress",
        });
      }
    }
    if (allowed) await deps.pace.beat(TOOL_BEAT_MS, signal);
    else [status, output] = ["failed", REFUSED_OUTPUT];
  } catch (error) {
    // A cancelled turn must not leave the tool call running forever on the client.
    status = "failed";
    output = "Cancelled";
    throw error;
  } finally {
    await channel.send({
      sessionUpdate: "tool_call_update",
      toolCallId,
      status,
      content: [{ type: "content", content: textBlock(output) }],
      rawOutput: { output },
    });
    state.history.push({
      kind: "tool",
      toolCallId,
      title: tool.title,
      toolKind: tool.toolKind,
      status,
      input: tool.input,
      output,
    });
    produced.output += tool.contextTokens ?? estimateTokens(output);
  }
  return allowed;
}

/** Streams a reply (thought, tool calls, then the Markdown message), adding up its tokens. */
export async function streamReply(
  deps: AgentDeps,
  session: AgentSession,
  reply: Reply,
  signal: AbortSignal,
  produced: Produced,
): Promise<void> {
  if (reply.holdMs !== undefined) await deps.pace.hold(reply.holdMs, signal);
  if (reply.thought) {
    await streamMessage(deps, session, "thought", reply.thought, 60, signal, produced);
  }
  const refused: string[] = [];
  for (const tool of reply.tools) {
    if (!(await runTool(deps, session, tool, signal, produced))) refused.push(tool.title);
  }
  const markdown = reply.conclude ? reply.conclude(refused) : reply.markdown;
  // Long replies (`/demo fill`) go in at most ~24 chunks rather than thousands.
  const size = Math.max(48, Math.ceil(markdown.length / 24));
  await streamMessage(deps, session, "agent", markdown, size, signal, produced);
}
