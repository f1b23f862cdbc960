// The ACP agent app: initialize, session/new, session/load, session/prompt, session/cancel.
// Each session runs one thing at a time (a turn, or a compaction between turns) through
// runExclusive, which also keeps frames sent after a response (available commands, the
// `idle` compaction, the next queued turn) from overtaking that response. The live sessions
// are live-sessions.ts, the work between turns between-turns.ts.
import {
  type AgentApp,
  agent,
  type InitializeResponse,
  methods,
  PROTOCOL_VERSION,
  RequestError,
} from "@agentclientprotocol/sdk";
import { type AgentDeps, cancelSession, runExclusive } from "./agent-session";
import { announce, compactBetweenTurns } from "./between-turns";
import {
  claimSessionId,
  createConversation,
  loadConversation,
  saveConversation,
} from "./conversation-state";
import { createLiveSessions } from "./live-sessions";
import type { AgentOptions } from "./options";
import { createPace } from "./pace";
import { runPromptTurn } from "./prompt-turn";
import { replayConversation, settleInterruptedCompactions } from "./replay";
import type { AgentWire } from "./wire";

const AGENT_INFO = {
  name: "tideline-demo-agent",
  title: "Tideline demo agent",
  version: "0.1.0",
};

export type DemoAgentHost = {
  exit(code: number): never;
  log(message: string): void;
};

export type DemoAgent = {
  app: AgentApp;
  /** Resolves once no session has work queued (turns, announcements, idle compactions). */
  settled(): Promise<void>;
};

function initializeResponse(options: AgentOptions): InitializeResponse {
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
}

export function createDemoAgent(
  options: AgentOptions,
  wire: AgentWire,
  host: DemoAgentHost,
): DemoAgent {
  const sessions = createLiveSessions(wire);
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

  const logFailure = (what: string) => (error: unknown) => {
    host.log(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
  };

  const app = agent({ name: AGENT_INFO.name })
    .onRequest(methods.agent.initialize, ({ params }): InitializeResponse => {
      // Omitted and null both mean the client cannot take compaction updates.
      capability = params.clientCapabilities?.session?.compaction != null;
      host.log(`initialize: compaction capability ${capability ? "on" : "off"}`);
      return initializeResponse(options);
    })
    .onRequest(methods.agent.session.new, ({ params, client }) => {
      const state = createConversation(claimSessionId(options.stateDir), params.cwd);
      deps.save(state);
      const session = sessions.open(state, client, params.mcpServers);
      void announce(deps, session, false).catch(logFailure("available_commands_update"));
      return { sessionId: state.sessionId };
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      if (!options.loadSession) throw RequestError.methodNotFound(methods.agent.session.load);
      const state = loadConversation(options.stateDir, params.sessionId);
      if (!state) throw RequestError.resourceNotFound(params.sessionId);
      settleInterruptedCompactions(state);
      state.cwd = params.cwd;
      deps.save(state);
      const session = sessions.open(state, client, params.mcpServers);
      await runExclusive(session, async () => {
        for (const update of replayConversation(state, capability))
          await session.channel.send(update);
      });
      void announce(deps, session, state.turnCount > 0).catch(logFailure("post-load announce"));
      return {};
    })
    .onRequest(methods.agent.session.prompt, async ({ params }) => {
      const session = sessions.require(params.sessionId);
      const controller = new AbortController();
      session.prompts.add(controller);
      const result = await runExclusive(
        session,
        (signal) => runPromptTurn(deps, session, params.prompt, signal),
        controller,
      ).finally(() => session.prompts.delete(controller));
      if (result.compactAfterTurn) {
        void compactBetweenTurns(deps, session).catch(logFailure("idle compaction"));
      }
      return result.response;
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      const session = sessions.get(params.sessionId);
      if (session !== undefined) cancelSession(session);
    });
  return { app, settled: sessions.settled };
}
