// What every part of the session host shares: the ledger, the live runtimes of running
// sessions, the change signal, and the guarded write. Each job module takes this and
// only the other jobs it calls, so its dependencies are visible in its signature.
import type { SessionState } from "../../../src/contract/session";
import type {
  LedgerRow,
  SessionReader,
  SessionRecord,
  SessionRecorder,
  SessionStore,
} from "../../domain/session-recorder-api";
import type { AgentProcess } from "../agent-process";
import { refuse } from "../session-refusal";
import { INITIALIZE_TIMEOUT_MS, type NamedAgent, type SessionHostDeps } from "./host-types";

export type Turn = { id: string; startedAt: string; kind: "prompt" | "compact" };

/** The daemon's in-memory side of a session whose agent runs (or ran) in this process. */
export type Runtime = {
  state: SessionState;
  process?: AgentProcess | undefined;
  acpSessionId?: string | undefined;
  /** What the agent's `initialize` said about `session/load`, once known. */
  supportsLoad?: boolean | undefined;
  turn?: Turn | undefined;
  /** A prompt accepted while the session was resuming: sent once it is active. */
  pendingPrompt?: string | undefined;
  /** Overrides the `stopped` reason when the process ends (stop request, init timeout…). */
  stopReason?: string | undefined;
};

type SessionChangeListener = (sessionId: string, removedFrom?: string) => void;

export type HostContext = {
  readonly deps: SessionHostDeps;
  readonly store: SessionStore;
  readonly recorder: SessionRecorder;
  readonly reader: SessionReader;
  readonly log: (line: string) => void;
  readonly now: () => Date;
  readonly initializeTimeoutMs: number;
  readonly runtimes: Map<string, Runtime>;
  onSessionChanged(listener: SessionChangeListener): () => void;
  /**
   * Tells every listener (the streams, the MCP server) that a session's view changed;
   * `removedFrom` names the workspace of a session that was just deleted.
   */
  changed(sessionId: string, removedFrom?: string): void;
  /** A failed write must not take the daemon (or other sessions) down; it is logged. */
  record(sessionId: string, what: string, write: () => LedgerRow[]): LedgerRow[];
  setState(sessionId: string, runtime: Runtime, state: SessionState, reason?: string): void;
  stateOf(sessionId: string): SessionState;
  /** The session, in this workspace when one is named; else the contract's not-found. */
  requireSession(sessionId: string, workspaceId?: string): SessionRecord;
  agentFor(name: string): NamedAgent | undefined;
  /** A session's agent gets the session tools unless its tool policy leaves them out. */
  toolsOffered(sessionId: string, policy?: boolean): boolean;
};

export function createHostContext(deps: SessionHostDeps): HostContext {
  const { store, recorder, reader } = deps.ledger;
  const log = deps.log ?? ((line: string) => console.error(line));
  const runtimes = new Map<string, Runtime>();
  const listeners = new Set<SessionChangeListener>();

  function changed(sessionId: string, removedFrom?: string) {
    for (const listener of listeners) {
      try {
        listener(sessionId, removedFrom);
      } catch (error) {
        log(`[host] session listener failed: ${String(error)}`);
      }
    }
  }

  function record(sessionId: string, what: string, write: () => LedgerRow[]): LedgerRow[] {
    try {
      return write();
    } catch (error) {
      log(
        `[${sessionId}] could not record ${what}: ${error instanceof Error ? error.message : error}`,
      );
      return [];
    }
  }

  function setState(sessionId: string, runtime: Runtime, state: SessionState, reason?: string) {
    runtime.state = state;
    if (state === "stopped" && runtime.turn !== undefined && runtime.pendingPrompt !== undefined) {
      // The session never came up for the prompt that resumed it: that turn ends unsent.
      const turnId = runtime.turn.id;
      runtime.turn = undefined;
      runtime.pendingPrompt = undefined;
      record(sessionId, "prompt.completed", () =>
        recorder.recordPromptCompleted(sessionId, turnId, { stop_reason: "agent_exited" }),
      );
    }
    record(sessionId, "session.state", () => recorder.recordState(sessionId, state, reason));
    changed(sessionId);
  }

  return {
    deps,
    store,
    recorder,
    reader,
    log,
    now: deps.now ?? (() => new Date()),
    initializeTimeoutMs: deps.initializeTimeoutMs ?? INITIALIZE_TIMEOUT_MS,
    runtimes,
    onSessionChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    changed,
    record,
    setState,
    stateOf: (sessionId) => runtimes.get(sessionId)?.state ?? reader.lastState(sessionId).state,
    requireSession(sessionId, workspaceId) {
      const found = store.getSession(sessionId);
      if (
        found === undefined ||
        (workspaceId !== undefined && found.workspace_id !== workspaceId)
      ) {
        throw refuse.notFound("session");
      }
      return found;
    },
    agentFor: (name) => deps.agents.find((agent) => agent.name === name),
    toolsOffered(sessionId, policy) {
      if (deps.sessionTools === undefined) return false;
      return policy ?? deps.ledger.settings.sessionToolsOf(sessionId) ?? true;
    },
  };
}
