// What a prompt that is not `/compact` turns into: the reply to stream, the prompt to
// remember (ordinary prompts only), and whether the turn may auto-compact or schedules an
// `idle` compaction. `/demo` prompts arm or switch things on the conversation state here.
import type { AgentDeps } from "./agent-session";
import { approvalsReply } from "./approvals-reply";
import { TURN_OVERHEAD_TOKENS } from "./context-usage";
import type { ConversationState } from "./conversation-state";
import {
  composeReply,
  fillReply,
  markdownShowcaseReply,
  type Reply,
  textReply,
  toolsShowcaseReply,
} from "./replies";
import { type DemoScenario, parseScenario, SCENARIO_HELP } from "./scenarios";
import { availableCommands, type PromptIntent } from "./slash-commands";

export type TurnPlan = {
  reply: Reply;
  /** The prompt as the conversation memory keeps it; null for commands. */
  prompt: string | null;
  mayAutoCompact: boolean;
  /** `/demo idle`: a compaction starts once this turn has been answered. */
  compactAfterTurn: boolean;
};

function replyPlan(reply: Reply, overrides: Partial<TurnPlan> = {}): TurnPlan {
  return { reply, prompt: null, mayAutoCompact: true, compactAfterTurn: false, ...overrides };
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

function planScenario(
  deps: AgentDeps,
  state: ConversationState,
  scenario: DemoScenario,
  promptTokens: number,
): TurnPlan {
  switch (scenario.kind) {
    case "arm": {
      const { name, seconds } = scenario.armed;
      state.armed.push(scenario.armed);
      const effect = SCENARIO_HELP.find(([usage]) => usage.split(" ")[0] === name)?.[1] ?? name;
      const duration = seconds !== undefined ? ` (${seconds} s)` : "";
      return replyPlan(textReply(`Armed **${name}**${duration}: ${effect}.`));
    }
    case "fill": {
      // `fill` never compacts in its own turn, so the meter shows the level asked for; the next
      // turn compacts on its own if that level is past the threshold.
      const target = Math.round((scenario.percent / 100) * deps.options.contextSize);
      const needed = target - state.contextUsed - TURN_OVERHEAD_TOKENS - promptTokens;
      const reply =
        needed > 0
          ? fillReply(needed, scenario.percent)
          : textReply(`The context is already past ${scenario.percent} % of the window.`);
      return replyPlan(reply, { mayAutoCompact: false });
    }
    case "wait":
      return replyPlan({
        ...textReply(`Waited ${scenario.seconds} s before answering.`),
        holdMs: scenario.seconds * 1000,
      });
    case "markdown":
      return replyPlan(markdownShowcaseReply());
    case "approvals":
      return replyPlan(approvalsReply());
    case "tools":
      return replyPlan(toolsShowcaseReply());
    case "idle":
      return replyPlan(
        textReply("This turn ends now; a compaction will start right after it, between turns."),
        { compactAfterTurn: true },
      );
    case "no-usage":
      state.reportsUsage = false;
      return replyPlan(textReply("Usage updates are off for this session from now on."));
  }
}

export function planTurn(
  deps: AgentDeps,
  state: ConversationState,
  intent: Exclude<PromptIntent, { kind: "compact" }>,
  promptTokens: number,
): TurnPlan {
  switch (intent.kind) {
    case "help":
      return replyPlan(helpReply(deps));
    case "demo": {
      const parsed = parseScenario(intent.argument);
      return parsed.ok
        ? planScenario(deps, state, parsed.scenario, promptTokens)
        : replyPlan(
            textReply(`Not a demo scenario: ${parsed.problem}. Type \`/help\` for the list.`),
          );
    }
    case "chat":
      return replyPlan(composeReply(intent.text, state.turnCount), { prompt: intent.text });
  }
}
