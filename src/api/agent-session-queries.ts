// A real agent's per-session reads: its command catalog (`GET …/commands`, fetched per
// session as CompozyOS's web does, ADR 0092) and the daemon's configured agents.
import { queryOptions } from "@tanstack/react-query";
import { AgentList } from "../contract/agent-session";
import { SessionCommands } from "../contract/commands";
import { getJson, sessionPath } from "./http";
import type { SessionRef } from "./session-queries";

export const agentSessionQueries = {
  /**
   * `advertised` is how many commands the session detail says the agent advertised: when
   * the agent announces a new set, the key changes and the catalog is read again.
   */
  commands: ({ workspaceId, sessionId }: SessionRef, advertised: number) =>
    queryOptions({
      queryKey: ["sessions", "commands", sessionId, advertised] as const,
      queryFn: ({ signal }) =>
        getJson(sessionPath(workspaceId, sessionId, "/commands"), SessionCommands, { signal }),
      // The agent re-advertises rarely; a minute old is fresh enough for a menu.
      staleTime: 60_000,
    }),
  agents: () =>
    queryOptions({
      queryKey: ["agents"] as const,
      queryFn: ({ signal }) => getJson("/api/agents", AgentList, { signal }),
      staleTime: 5 * 60_000,
    }),
};
