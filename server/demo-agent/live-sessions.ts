// The sessions live in the agent process, by ACP session id: opened by `session/new` or
// `session/load` with their channel to the client, looked up by the requests that name
// them, and awaited together until none has work queued.
import { type AgentContext, type McpServer, RequestError } from "@agentclientprotocol/sdk";
import { type AgentSession, createAgentSession } from "./agent-session";
import type { ConversationState } from "./conversation-state";
import { createSessionChannel } from "./session-channel";
import type { AgentWire } from "./wire";

export function createLiveSessions(wire: AgentWire) {
  const sessions = new Map<string, AgentSession>();
  return {
    open(
      state: ConversationState,
      client: AgentContext,
      mcpServers: readonly McpServer[],
    ): AgentSession {
      const session = createAgentSession(
        state,
        createSessionChannel(client, wire, state.sessionId),
        mcpServers,
      );
      sessions.set(state.sessionId, session);
      return session;
    },

    /** The session a request names; the ACP not-found error otherwise. */
    require(sessionId: string): AgentSession {
      const session = sessions.get(sessionId);
      if (!session) throw RequestError.resourceNotFound(sessionId);
      return session;
    },

    get: (sessionId: string) => sessions.get(sessionId),

    /** Resolves once no session has work queued (turns, announcements, idle compactions). */
    async settled(): Promise<void> {
      for (;;) {
        const queues = [...sessions.values()].map((session) => session.queue);
        await Promise.all(queues);
        if ([...sessions.values()].every((session, index) => session.queue === queues[index])) {
          return;
        }
      }
    },
  };
}
