// Test support: a replay agent (fixtures/replay-agent.mjs) for one recorded conversation
// of a real adapter (fixtures/real-agents/), as a configured agent of a test daemon.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { NamedAgent } from "../acp/session-host";

export const REAL_AGENT_FIXTURES = fileURLToPath(
  new URL("./fixtures/real-agents/", import.meta.url),
);
const REPLAY = fileURLToPath(new URL("./fixtures/replay-agent.mjs", import.meta.url));

export function replayAgent(
  name: string,
  fixture: string,
  options: { record?: string; crashAtPermission?: boolean } = {},
): NamedAgent {
  return {
    name,
    command: process.execPath,
    args: [
      REPLAY,
      join(REAL_AGENT_FIXTURES, fixture),
      ...(options.record === undefined ? [] : ["--record", options.record]),
      ...(options.crashAtPermission ? ["--crash-at-permission"] : []),
    ],
  };
}
