// One `session/prompt` turn: decide what the prompt asks for, stream the reply, report usage,
// compact when asked to or when the context passed the threshold, and answer with the stop
// reason and the turn's tokens. Every frame of the turn is awaited before the response is
// returned, so the response always comes last (the terminal compaction update before it).
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { PromptResponse, Usage } from "@agentclientprotocol/sdk/unstable";
import { type AgentDeps, type AgentSession, reportUsage } from "./agent-session";
import { compactConversation } from "./compact-conversation";
import { readContextReplay, replayAcknowledgement } from "./context-replay";
import {
  estimateTokens,
  isPastThreshold,
  outputCostUsd,
  roundUsd,
  TURN_OVERHEAD_TOKENS,
  type TurnTokens,
  turnCostUsd,
  turnUsage,
} from "./context-usage";
import type { ConversationState } from "./conversation-state";
import { TurnCancelled } from "./pace";
import type { Reply } from "./replies";
import { textReply } from "./replies";
import { type Produced, streamReply } from "./reply-stream";
import { callSessionTool, parseToolRequest, toolStep } from "./session-tools-client";
import { parseIntent } from "./slash-commands";
import { planTurn } from "./turn-plan";

export type TurnResult = {
  response: PromptResponse & { usage: Usage };
  /** Set by `/demo idle`: start a compaction once this turn has been answered. */
  compactAfterTurn: boolean;
};

function remember(state: ConversationState, prompt: string | null, reply: Reply): void {
  const { memory } = state;
  if (prompt !== null) {
    memory.goal ??= prompt.replace(/\s+/g, " ").trim().slice(0, 200);
    if (prompt.trim().endsWith("?")) memory.questions.push(prompt.replace(/\s+/g, " ").trim());
  }
  if (reply.decision) memory.decisions.push(reply.decision);
  for (const file of reply.files) if (!memory.files.includes(file)) memory.files.push(file);
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

/**
 * Compacts inside the turn; a cancelled compaction cancels the turn. `charge` adds what
 * the summary cost to the running total before the usage report after it, so that report
 * carries it (ACP's `cost` is cumulative: a late charge would land on the next turn).
 */
async function compactInTurn(
  deps: AgentDeps,
  session: AgentSession,
  signal: AbortSignal,
  focus: string | null,
  charge: (summaryTokens: number) => void,
): Promise<void> {
  const played = await compactConversation(deps, session, signal, focus);
  if (played.cancelled) throw new TurnCancelled();
  charge(estimateTokens(played.summary ?? ""));
  if (played.status === "completed" && played.reportsUsage) await reportUsage(deps, session);
}

export async function runPromptTurn(
  deps: AgentDeps,
  session: AgentSession,
  blocks: readonly ContentBlock[],
  signal: AbortSignal,
): Promise<TurnResult> {
  const { state } = session;
  const received = readContextReplay(promptText(blocks));
  const text = received.request;
  const replay = received.replay;
  if (replay !== null) {
    // The conversation so far came with the prompt: it is what this session remembers.
    state.memory.goal ??= replay.firstRequest?.replace(/\s+/g, " ").trim().slice(0, 200) ?? null;
    state.receivedReplays.push({
      messageCount: replay.messages.length,
      omitted: replay.omitted,
      bytes: replay.bytes,
      text: replay.text,
    });
  }
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
      // A maintenance turn: the context only shrinks; the summary is what it produced.
      // Its whole cost is charged once, before its usage report (or when it was cancelled).
      let charged = false;
      const charge = (summaryTokens: number) => {
        tokens.outputTokens += summaryTokens;
        state.costUsd = roundUsd(state.costUsd + turnCostUsd(turnUsage(tokens)));
        charged = true;
      };
      try {
        await compactInTurn(deps, session, signal, intent.focus, charge);
      } finally {
        if (!charged) charge(0);
      }
    } else {
      const plan = planTurn(deps, state, intent, tokens.promptTokens);
      if (intent.kind === "demo" && /^tool(\s|$)/.test(intent.argument)) {
        const request = parseToolRequest(intent.argument);
        if (typeof request === "string") plan.reply = textReply(request);
        else {
          const outcome = await callSessionTool(session.mcpServers, request);
          plan.reply = {
            ...textReply(
              outcome.failed ? `\`${request.name}\` failed.` : `Called \`${request.name}\`.`,
            ),
            tools: [toolStep(request, outcome)],
          };
        }
      }
      if (replay !== null) {
        plan.reply = {
          ...plan.reply,
          markdown: `${replayAcknowledgement(replay)}\n\n${plan.reply.markdown}`,
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
      const { contextSize, autoCompactAt } = deps.options;
      if (plan.mayAutoCompact && isPastThreshold(state.contextUsed, contextSize, autoCompactAt)) {
        await compactInTurn(deps, session, signal, null, (summaryTokens) => {
          tokens.outputTokens += summaryTokens;
          state.costUsd = roundUsd(state.costUsd + outputCostUsd(summaryTokens));
        });
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
