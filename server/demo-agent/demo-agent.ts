// The ACP agent app: initialize, session/new, session/load, session/prompt, session/cancel.
// Each session runs one thing at a time (a turn, or a compaction between turns) through
// runExclusive, which also keeps frames sent after a response (available commands, the
// `idle` compaction, the next queued turn) from overtaking that response.
import {
  type AgentApp,
  type AgentContext,
  agent,
  type InitializeResponse,
  type McpServer,
  methods,
  PROTOCOL_VERSION,
  RequestError,
} from "@agentclientprotocol/sdk";
import {
  type AgentDeps,
  type AgentSession,
  createAgentSession,
  reportUsage,
  runExclusive,
} from "./agent-session";
import { compactConversation } from "./compact-conversation";
import { estimateTokens, outputCostUsd, roundUsd } from "./context-usage";
import {
  type ConversationState,
  claimSessionId,
  createConversation,
  loadConversation,
  saveConversation,
} from "./conversation-state";
import type { AgentOptions } from "./options";
import { createPace, TurnCancelled } from "./pace";
import { runPromptTurn } from "./prompt-turn";
import { replayConversation, settleInterruptedCompactions } from "./replay";
import { createSessionChannel } from "./session-channel";
import { availableCommands } from "./slash-commands";
import type { AgentWire } from "./wire";

export const AGENT_INFO = {
  name: "tideline-demo-agent",
  title: "Tideline demo agent",
  version: "0.1.0",
};

/** How long an `idle` compaction waits after its turn ended before it starts (at speed 1). */
const IDLE_START_MS = 1_500;

export type DemoAgentHost = {
  exit(code: number): never;
  log(message: string): void;
};

export type DemoAgent = {
  app: AgentApp;
  /** Resolves once no session has work queued (turns, announcements, idle compactions). */
  settled(): Promise<void>;
};

export function createDemoAgent(
  options: AgentOptions,
  wire: AgentWire,
  host: DemoAgentHost,
): DemoAgent {
  const sessions = new Map<string, AgentSession>();
  let capability = false;
  const deps: AgentDeps = {
    options,
    pace: createPace(options.speed),
    get capability() {
      return capability;
    },
    save: (state) => saveConversation(options.stateDir, state),
    exit: host.exit,
    log: host.log,
  };

  const open = (
    state: ConversationState,
    client: AgentContext,
    mcpServers: readonly McpServer[],
  ): AgentSession => {
    const session = createAgentSession(
      state,
      createSessionChannel(client, wire, state.sessionId),
      mcpServers,
    );
    sessions.set(state.sessionId, session);
    return session;
  };

  const requireSession = (sessionId: string): AgentSession => {
    const session = sessions.get(sessionId);
    if (!session) throw RequestError.resourceNotFound(sessionId);
    return session;
  };

  const announce = (session: AgentSession, withUsage: boolean) =>
    runExclusive(session, async () => {
      await session.channel.send({
        sessionUpdate: "available_commands_update",
        availableCommands: availableCommands(options.commands),
      });
      if (withUsage) await reportUsage(deps, session);
    });

  const compactBetweenTurns = (session: AgentSession) =>
    runExclusive(session, async (signal) => {
      try {
        await deps.pace.beat(IDLE_START_MS, signal);
        const played = await compactConversation(deps, session, signal, null);
        // The summary is output the model produced: charged before the report that follows.
        if (!played.cancelled) {
          const { state } = session;
          state.costUsd = roundUsd(
            state.costUsd + outputCostUsd(estimateTokens(played.summary ?? "")),
          );
          deps.save(state);
        }
        if (played.status === "completed" && !played.cancelled && played.reportsUsage) {
          await reportUsage(deps, session);
        }
      } catch (error) {
        if (!(error instanceof TurnCancelled)) throw error;
      }
    });

  const logFailure = (what: string) => (error: unknown) => {
    host.log(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
  };

  const settled = async () => {
    for (;;) {
      const queues = [...sessions.values()].map((session) => session.queue);
      await Promise.all(queues);
      if ([...sessions.values()].every((session, index) => session.queue === queues[index])) return;
    }
  };

  const app = agent({ name: AGENT_INFO.name })
    .onRequest(methods.agent.initialize, ({ params }): InitializeResponse => {
      // Omitted and null both mean the client cannot take compaction updates.
      capability = params.clientCapabilities?.session?.compaction != null;
      host.log(`initialize: compaction capability ${capability ? "on" : "off"}`);
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: options.loadSession,
          // `/demo tool` calls the session tools the client offers over MCP HTTP.
          mcpCapabilities: { http: true, sse: false },
          promptCapabilities: { image: false, audio: false, embeddedContext: false },
        },
        agentInfo: AGENT_INFO,
        authMethods: [],
      };
    })
    .onRequest(methods.agent.session.new, ({ params, client }) => {
      const state = createConversation(claimSessionId(options.stateDir), params.cwd);
      deps.save(state);
      const session = open(state, client, params.mcpServers);
      void announce(session, false).catch(logFailure("available_commands_update"));
      return { sessionId: state.sessionId };
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      if (!options.loadSession) throw RequestError.methodNotFound(methods.agent.session.load);
      const state = loadConversation(options.stateDir, params.sessionId);
      if (!state) throw RequestError.resourceNotFound(params.sessionId);
      settleInterruptedCompactions(state);
      state.cwd = params.cwd;
      deps.save(state);
      const session = open(state, client, params.mcpServers);
      await runExclusive(session, async () => {
        for (const update of replayConversation(state, capability))
          await session.channel.send(update);
      });
      void announce(session, state.turnCount > 0).catch(logFailure("post-load announce"));
      return {};
    })
    .onRequest(methods.agent.session.prompt, async ({ params }) => {
      const session = requireSession(params.sessionId);
      const result = await runExclusive(session, (signal) =>
        runPromptTurn(deps, session, params.prompt, signal),
      );
      if (result.compactAfterTurn) {
        void compactBetweenTurns(session).catch(logFailure("idle compaction"));
      }
      return result.response;
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.running?.abort();
    });
  return { app, settled };
}
