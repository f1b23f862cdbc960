// The New session dialog's choices: the daemon's configured agents (`GET /api/agents`),
// default first, named for people (a preset's product name beside the configured name).

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
