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

/** Streams a reply and returns the tokens it produced (output, thought). */
async function streamReply(
  deps: AgentDeps,
  session: AgentSession,
  reply: Reply,
  signal: AbortSignal,
): Promise<{ output: number; thought: number }> {
  const { state, channel } = session;
  const produced = { output: 0, thought: 0 };
  if (reply.thought) {
    const entry: HistoryEntry = { kind: "thought", messageId: nextId(state, "message"), text: "" };
    state.history.push(entry);
    for (const text of chunkText(reply.thought, 60)) {
      await deps.pace.beat(CHUNK_BEAT_MS, signal);
      await channel.send({
        sessionUpdate: "agent_thought_chunk",
        messageId: entry.messageId,
        content: textBlock(text),
      });
      entry.text += text;
      produced.thought += estimateTokens(text);
    }
  }
  for (const tool of reply.tools) {
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
    await deps.pace.beat(TOOL_BEAT_MS, signal);
    const status = tool.fails ? "failed" : "completed";
    await channel.send({
      sessionUpdate: "tool_call_update",
      toolCallId,
      status,
      content: [{ type: "content", content: textBlock(tool.output) }],
      rawOutput: { output: tool.output },
    });
    state.history.push({
      kind: "tool",
      toolCallId,
      title: tool.title,
      toolKind: tool.toolKind,
      status,
      input: tool.input,
      output: tool.output,
    });
    produced.output += estimateTokens(tool.output);
  }
  const entry: HistoryEntry = { kind: "agent", messageId: nextId(state, "message"), text: "" };
  state.history.push(entry);
  // Long replies (`/demo fill`) go in at most ~24 chunks rather than thousands.
  const size = Math.max(48, Math.ceil(reply.markdown.length / 24));
  for (const text of chunkText(reply.markdown, size)) {
    await deps.pace.beat(CHUNK_BEAT_MS, signal);
    await channel.send({
      sessionUpdate: "agent_message_chunk",
      messageId: entry.messageId,
      content: textBlock(text),
    });
    entry.text += text;
    produced.output += estimateTokens(text);
  }
  return produced;
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
      try {
        const produced = await streamReply(deps, session, plan.reply, signal);
        tokens.outputTokens += produced.output;
        tokens.thoughtTokens += produced.thought;
        remember(state, plan.prompt, plan.reply);
      } finally {
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
