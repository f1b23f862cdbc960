// Streams a reply onto the wire: a thought, tool calls (each in_progress, then completed or
// failed), then the Markdown message in chunks under one messageId. Each part goes into the
// session history as it is sent, and its tokens are counted even when a cancel cuts it short.
import type { AgentDeps, AgentSession } from "./agent-session";
import { estimateTokens } from "./context-usage";
import { type HistoryEntry, nextId } from "./conversation-state";
import { chunkText, type Reply, type ToolStep } from "./replies";
import { textBlock } from "./session-channel";

const CHUNK_BEAT_MS = 40;
const TOOL_BEAT_MS = 400;

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

async function runTool(
  deps: AgentDeps,
  session: AgentSession,
  tool: ToolStep,
  signal: AbortSignal,
  produced: Produced,
): Promise<void> {
  const { state, channel } = session;
  const toolCallId = nextId(state, "toolCall");
  await deps.pace.beat(CHUNK_BEAT_MS, signal);
  await channel.send({
    sessionUpdate: "tool_call",
    toolCallId,
    title: tool.title,
    kind: tool.toolKind,
    status: "in_progress",
    rawInput: tool.input,
  });
  let status: "completed" | "failed" = tool.fails ? "failed" : "completed";
  let output = tool.output;
  try {
    await deps.pace.beat(TOOL_BEAT_MS, signal);
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
}

/** Streams a reply (thought, tool calls, then the Markdown message), adding up its tokens. */
export async function streamReply(
  deps: AgentDeps,
  session: AgentSession,
  reply: Reply,
  signal: AbortSignal,
  produced: Produced,
): Promise<void> {
  if (reply.thought) {
    await streamMessage(deps, session, "thought", reply.thought, 60, signal, produced);
  }
  for (const tool of reply.tools) await runTool(deps, session, tool, signal, produced);
  // Long replies (`/demo fill`) go in at most ~24 chunks rather than thousands.
  const size = Math.max(48, Math.ceil(reply.markdown.length / 24));
  await streamMessage(deps, session, "agent", reply.markdown, size, signal, produced);
}
