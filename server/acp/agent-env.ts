// What an agent process (and so every command it runs) inherits from the daemon. Agents
// are other people's code driven by a model: they get what an adapter needs to work —
// PATH, HOME, their own API keys, proxies, locale — and none of the daemon's own secrets.
// The rule (ADR 0170): every `TIDELINE_*` variable is the daemon's (its bearer token, the
// upstream credential, the CLI's address) and is removed, whatever its case; then the
// daemon adds only `TIDELINE_AGENT_GROUP`, the tree marker its start-up reaper checks.

/** Removed from every agent's environment: the daemon's own settings and secrets. */
const DAEMON_ONLY = /^TIDELINE_/i;

export function agentEnvironment(parent: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(parent)) {
    if (value !== undefined && !DAEMON_ONLY.test(key)) env[key] = value;
  }
  return env;
}
