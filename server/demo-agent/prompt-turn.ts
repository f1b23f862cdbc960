// One `session/prompt` turn: decide what the prompt asks for, stream the reply (thought, tool
// calls, Markdown in chunks with a messageId), report usage, compact when asked to or when
// the context passed the threshold, and answer with the stop reason and the turn's tokens.
// Every frame of the turn is awaited before the response, so the response always comes last.
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { PromptResponse, Usage } from "@agentclientprotocol/sdk/unstable";
import { type AgentDeps, type AgentSession, reportUsage } from "./agent-session";
import { compactConversation } from "./compact-conversation";
import {
  estimateTokens,
  isPastThreshold,
  roundUsd,
  TURN_OVERHEAD_TOKENS,
  type TurnTokens,
  turnCostUsd,
  turnUsage,
} from "./context-usage";
import { type ConversationState, type HistoryEntry, nextId } from "./conversation-state";
import { TurnCancelled } from "./pace";
import {
  chunkText,
  composeReply,
  fillReply,
  markdownShowcaseReply,
  type Reply,
  type ToolStep,
  textReply,
  toolsShowcaseReply,
} from "./replies";
import { type DemoScenario, parseScenario, SCENARIO_HELP } from "./scenarios";
import { textBlock } from "./session-channel";
import { availableCommands, parseIntent } from "./slash-commands";

export type TurnResult = {
  response: PromptResponse & { usage: Usage };
  /** Set by `/demo idle`: start a compaction once this turn has been answered. */
  compactAfterTurn: boolean;
};

const CHUNK_BEAT_MS = 40;
const TOOL_BEAT_MS = 400;

function remember(state: ConversationState, prompt: string | null, reply: Reply): void {
  const { memory } = state;
  if (prompt !== null) {
    memory.goal ??= prompt.replace(/\s+/g, " ").trim().slice(0, 200);
    if (prompt.trim().endsWith("?")) memory.questions.push(prompt.replace(/\s+/g, " ").trim());
  }
  if (reply.decision) memory.decisions.push(reply.decision);
  for (const file of reply.files) if (!memory.files.includes(file)) memory.files.push(file);
}

type Produced = { output: number; thought: number };

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
    produced.output += estimateTokens(output);
  }
}

/** Streams a reply (thought, tool calls, then the Markdown message), adding up its tokens. */
async function streamReply(
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

function helpReply(deps: AgentDeps): Reply {
  const commands = availableCommands(deps.options.commands).map(
    (command) =>
      `- \`/${command.name}\`${command.input ? ` ${command.input.hint}` : ""}: ${command.description}`,
  );
  const scenarios = SCENARIO_HELP.map(([usage, effect]) => `| \`/demo ${usage}\` | ${effect} |`);
  return textReply(
    [
      "## Commands",
      "",
      ...commands,
      "",
      "## Demo scenarios",
      "",
      "| prompt | effect |",
      "|---|---|",
      ...scenarios,
    ].join("\n"),
  );
}

type Plan = {
  reply: Reply;
  prompt: string | null;
  mayAutoCompact: boolean;
  compactAfterTurn: boolean;
};

function planScenario(
  deps: AgentDeps,
  state: ConversationState,
  scenario: DemoScenario,
  promptTokens: number,
): Plan {
  const plain = (markdown: string): Plan => ({
    reply: textReply(markdown),
    prompt: null,
    mayAutoCompact: true,
    compactAfterTurn: false,
  });
  switch (scenario.kind) {
    case "arm": {
      const { name, seconds } = scenario.armed;
      state.armed.push(scenario.armed);
      const effect = SCENARIO_HELP.find(([usage]) => usage.split(" ")[0] === name)?.[1] ?? name;
      return plain(
        `Armed **${name}**${seconds !== undefined ? ` (${seconds} s)` : ""}: ${effect}.`,
      );
    }
    case "fill": {
      // `fill` never compacts in its own turn, so the meter shows the level asked for; the next
      // turn compacts on its own if that level is past the threshold.
      const target = Math.round((scenario.percent / 100) * deps.options.contextSize);
      const needed = target - state.contextUsed - TURN_OVERHEAD_TOKENS - promptTokens;
      if (needed <= 0) {
        return {
          ...plain(`The context is already past ${scenario.percent} % of the window.`),
          mayAutoCompact: false,
        };
      }
      return {
        reply: fillReply(needed, scenario.percent),
        prompt: null,
        mayAutoCompact: false,
        compactAfterTurn: false,
      };
    }
    case "markdown":
      return {
        reply: markdownShowcaseReply(),
        prompt: null,
        mayAutoCompact: true,
        compactAfterTurn: false,
      };
    case "tools":
      return {
        reply: toolsShowcaseReply(),
        prompt: null,
        mayAutoCompact: true,
        compactAfterTurn: false,
      };
    case "idle":
      return {
        ...plain("This turn ends now; a compaction will start right after it, between turns."),
        compactAfterTurn: true,
      };
    case "no-usage":
      state.reportsUsage = false;
      return plain("Usage updates are off for this session from now on.");
  }
}

function promptText(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((block) => {
      if (block.type === "text") return block.text;
      if (block.type === "resource_link") return block.uri;
      return `[${block.type}]`;
    })
    .join("\n");
}

export async function runPromptTurn(
  deps: AgentDeps,
  session: AgentSession,
  blocks: readonly ContentBlock[],
  signal: AbortSignal,
): Promise<TurnResult> {
  const { state } = session;
  const text = promptText(blocks);
  state.turnCount += 1;
  state.history.push({ kind: "user", text });
  const tokens: TurnTokens = {
    contextBefore: state.contextUsed,
    promptTokens: estimateTokens(text),
    outputTokens: 0,
    thoughtTokens: 0,
  };
  let compactAfterTurn = false;
  let stopReason: PromptResponse["stopReason"] = "end_turn";
  try {
    const intent = parseIntent(text, deps.options.commands);
    if (intent.kind === "compact") {
      const played = await compactConversation(deps, session, signal, intent.focus);
      tokens.outputTokens += estimateTokens(played.summary ?? "");
      state.costUsd = roundUsd(state.costUsd + turnCostUsd(turnUsage(tokens)));
      if (played.cancelled) throw new TurnCancelled();
      if (played.status === "completed") await reportUsage(deps, session);
    } else {
      let plan: Plan;
      if (intent.kind === "help") {
        plan = {
          reply: helpReply(deps),
          prompt: null,
          mayAutoCompact: true,
          compactAfterTurn: false,
        };
      } else if (intent.kind === "demo") {
        const parsed = parseScenario(intent.argument);
        plan = parsed.ok
          ? planScenario(deps, state, parsed.scenario, tokens.promptTokens)
          : {
              reply: textReply(
                `Not a demo scenario: ${parsed.problem}. Type \`/help\` for the list.`,
              ),
              prompt: null,
              mayAutoCompact: true,
              compactAfterTurn: false,
            };
      } else {
        plan = {
          reply: composeReply(intent.text, state.turnCount),
          prompt: intent.text,
          mayAutoCompact: true,
          compactAfterTurn: false,
        };
      }
      compactAfterTurn = plan.compactAfterTurn;
      const produced: Produced = { output: 0, thought: 0 };
      try {
        await streamReply(deps, session, plan.reply, signal, produced);
        remember(state, plan.prompt, plan.reply);
      } finally {
        tokens.outputTokens += produced.output;
        tokens.thoughtTokens += produced.thought;
        state.contextUsed =
          tokens.contextBefore +
          TURN_OVERHEAD_TOKENS +
          tokens.promptTokens +
          tokens.outputTokens +
          tokens.thoughtTokens;
        state.costUsd = roundUsd(state.costUsd + turnCostUsd(turnUsage(tokens)));
      }
      await reportUsage(deps, session);
      if (
        plan.mayAutoCompact &&
        isPastThreshold(state.contextUsed, deps.options.contextSize, deps.options.autoCompactAt)
      ) {
        const played = await compactConversation(deps, session, signal, null);
        const summaryTokens = estimateTokens(played.summary ?? "");
        tokens.outputTokens += summaryTokens;
        state.costUsd = roundUsd(
          state.costUsd +
            turnCostUsd({
              ...turnUsage(tokens),
              inputTokens: 0,
              outputTokens: summaryTokens,
              thoughtTokens: 0,
            }),
        );
        if (played.cancelled) throw new TurnCancelled();
        if (played.status === "completed") await reportUsage(deps, session);
      }
    }
  } catch (error) {
    if (!(error instanceof TurnCancelled)) throw error;
    stopReason = "cancelled";
    compactAfterTurn = false;
  } finally {
    deps.save(state);
  }
  return { response: { stopReason, usage: turnUsage(tokens) }, compactAfterTurn };
}
