// The New session dialog's choices: the daemon's configured agents (`GET /api/agents`),
// default first, named for people (a preset's product name beside the configured name).
import { isApiError } from "../../api/http";
import { refusalText } from "../../api/refusal-words";

export type AgentChoice = { name: string; isDefault: boolean; preset: string | undefined };

const PRESET_NAMES: Record<string, string> = {
  claude: "Claude Code",
  codex: "Codex",
  demo: "Demo agent (scripted, no key)",
};

/** "claude · Claude Code", or just the name for a custom command. */
export function agentLabel(agent: AgentChoice): string {
  const product = agent.preset === undefined ? undefined : PRESET_NAMES[agent.preset];
  return product && product.toLowerCase() !== agent.name.toLowerCase()
    ? `${agent.name} · ${product}`
    : agent.name;
}

/** The agent preselected: the daemon's default, else the first. */
export function initialAgent(agents: readonly AgentChoice[]): string | undefined {
  return (agents.find((agent) => agent.isDefault) ?? agents[0])?.name;
}

/** The create body: the agent, and a name only when one was typed. */
export function createBody(agent: string | undefined, name: string) {
  const trimmed = name.trim();
  return {
    ...(agent === undefined ? {} : { agent_name: agent }),
    ...(trimmed === "" ? {} : { name: trimmed.slice(0, 200) }),
  };
}

/**
 * Why the agents are not listed, as one notice. Unreachable: nothing can be created until
 * the daemon is back, so it does not promise a default agent.
 */
export function agentsProblem(error: unknown): string {
  if (isApiError(error, "network")) {
    return "Couldn't reach the daemon, so its agents can't be listed. A session can be created once it is back.";
  }
  const reason = refusalText(error).replace(/[.\s]+$/, "");
  return `Couldn't load the agents (${reason}). The session will start with the daemon's default agent.`;
}
