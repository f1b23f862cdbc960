// The agent host: one child process per running session, its lifecycle, and its turns.
//
// Everything the agent says is recorded in receive order. The raw tap in agent-process.ts
// hands each line over synchronously and every recorder call is one synchronous SQLite
// transaction, so a session's work is serialized by construction: its "queue" is the
// order of lines on the child's stdout, and no handler can overtake another.
// Prompt and compact requests are decided synchronously too (check and claim the turn
// without an `await` between), so two concurrent requests can never both be accepted.
import { randomUUID } from "node:crypto";
import { type CompactionCommand, chooseCompactionCommand } from "../../src/contract/commands";
import type { Session, SessionState } from "../../src/contract/session";
import type { Ledger, LedgerRow, RequestedBy, SessionRecord } from "../domain/session-recorder-api";
import type { AgentGroupRegistry } from "./agent-groups";
import { type AgentCommand, type AgentProcess, spawnAgent } from "./agent-process";
import { decidePermission } from "./permission-policy";
import { completionOf } from "./prompt-completion";
import { refuse } from "./session-refusal";

/** How long each handshake step (initialize, session/new, session/load) may take. */
export const INITIALIZE_TIMEOUT_MS = 30_000;

export type NamedAgent = AgentCommand & { name: string };

export type SessionHostDeps = {
  ledger: Ledger;
  /** In configuration order; the first is the default. */
  agents: readonly NamedAgent[];
  version: string;
  /** Where agent processes run (relative agent commands resolve from here). */
  agentCwd: string;
  initializeTimeoutMs?: number;
  /** How long a stopped agent gets between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /** Where live agent process groups are recorded, so a restart can reap them. */
  groups?: AgentGroupRegistry;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  now?: () => Date;
};

type Turn = { id: string; startedAt: string; kind: "prompt" | "compact" };

type Runtime = {
  state: SessionState;
  process?: AgentProcess | undefined;
  acpSessionId?: string | undefined;
  turn?: Turn | undefined;
  /** Overrides the `stopped` reason when the process ends (stop request, init timeout…). */
  stopReason?: string | undefined;
};

export type TurnAccepted = { sessionId: string; turnId: string };
export type CompactAccepted = TurnAccepted & { command: CompactionCommand };

export type SessionListFilter = { workspaceId?: string; state?: SessionState };

export type SessionHost = ReturnType<typeof createSessionHost>;

export function createSessionHost(deps: SessionHostDeps) {
  const { store, recorder, reader } = deps.ledger;
  const log = deps.log ?? ((line: string) => console.error(line));
  const now = deps.now ?? (() => new Date());
  const initializeTimeoutMs = deps.initializeTimeoutMs ?? INITIALIZE_TIMEOUT_MS;
  const runtimes = new Map<string, Runtime>();
  // Every agent tree not yet ended, including those whose leader exited and whose
  // orphans are still being ended: what shutdown and killAllNow() must reach.
  const trees = new Set<AgentProcess>();
  const listeners = new Set<(sessionId: string) => void>();

  function changed(sessionId: string) {
    for (const listener of listeners) {
      try {
        listener(sessionId);
      } catch (error) {
        log(`[host] session listener failed: ${String(error)}`);
      }
    }
  }

  /** A failed write must not take the daemon (or other sessions) down; it is logged. */
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
    record(sessionId, "session.state", () => recorder.recordState(sessionId, state, reason));
    changed(sessionId);
  }

  function stateOf(sessionId: string): SessionState {
    return runtimes.get(sessionId)?.state ?? reader.lastState(sessionId).state;
  }

  function view(record: SessionRecord): Session {
    const runtime = runtimes.get(record.id);
    const turn = runtime?.turn;
    return {
      id: record.id,
      workspace_id: record.workspace_id,
      agent_name: record.agent_name,
      ...(record.name === undefined ? {} : { name: record.name }),
      state: runtime?.state ?? reader.lastState(record.id).state,
      ...(turn === undefined
        ? {}
        : { activity: { turn_id: turn.id, turn_started_at: turn.startedAt, kind: turn.kind } }),
      available_commands: reader.availableCommands(record.id),
      created_at: record.created_at,
      updated_at: record.updated_at,
    };
  }

  function requireSession(sessionId: string, workspaceId?: string): SessionRecord {
    const found = store.getSession(sessionId);
    if (found === undefined || (workspaceId !== undefined && found.workspace_id !== workspaceId)) {
      throw refuse.notFound("session");
    }
    return found;
  }

  function agentFor(name: string): NamedAgent | undefined {
    return deps.agents.find((agent) => agent.name === name);
  }

  function exitReason(exit: { code: number | null; signal: string | null; error?: string }) {
    if (exit.error !== undefined) return exit.error;
    if (exit.signal !== null) return `agent exited on signal ${exit.signal}`;
    return `agent exited with code ${exit.code ?? "unknown"}`;
  }

  function onExit(
    sessionId: string,
    runtime: Runtime,
    proc: AgentProcess,
    exit: { code: number | null; signal: string | null; error?: string },
  ) {
    if (runtime.process !== proc) return;
    const turn = runtime.turn;
    record(sessionId, "agent.exited", () =>
      recorder.recordAgentExited(sessionId, turn?.id ?? null, {
        code: exit.code,
        signal: exit.signal,
      }),
    );
    if (turn !== undefined) {
      record(sessionId, "prompt.completed", () =>
        recorder.recordPromptCompleted(sessionId, turn.id, { stop_reason: "agent_exited" }),
      );
      runtime.turn = undefined;
    }
    runtime.process = undefined;
    const reason = runtime.stopReason ?? exitReason(exit);
    runtime.stopReason = undefined;
    setState(sessionId, runtime, "stopped", reason);
  }

  function launch(session: SessionRecord, runtime: Runtime, resume: boolean) {
    const agent = agentFor(session.agent_name);
    const workspace = store.getWorkspace(session.workspace_id);
    setState(session.id, runtime, "starting");
    if (agent === undefined || workspace === undefined) {
      setState(session.id, runtime, "stopped", `agent "${session.agent_name}" is not configured`);
      return;
    }
    let proc: AgentProcess;
    try {
      proc = spawnAgent(
        agent,
        {
          cwd: deps.agentCwd,
          ...(deps.env ? { env: deps.env } : {}),
          ...(deps.killGraceMs === undefined ? {} : { killGraceMs: deps.killGraceMs }),
        },
        {
          update: (update, line) => {
            const rows = record(session.id, "session/update", () =>
              recorder.recordUpdate(session.id, runtime.turn?.id ?? null, update, line),
            );
            if (rows.some((row) => row.type === "available_commands")) changed(session.id);
          },
          invalidFrame: (raw, error) => {
            record(session.id, "agent.invalid_frame", () =>
              recorder.recordInvalidFrame(session.id, runtime.turn?.id ?? null, raw, error),
            );
          },
          promptAnswered: (outcome) => {
            const turn = runtime.turn;
            if (turn === undefined) return;
            if (!outcome.ok) log(`[${session.id}] session/prompt failed: ${outcome.error}`);
            record(session.id, "prompt.completed", () =>
              recorder.recordPromptCompleted(session.id, turn.id, completionOf(outcome)),
            );
            runtime.turn = undefined;
            changed(session.id);
          },
          permission: (request) => {
            const answer = decidePermission(request);
            record(session.id, "permission", () =>
              recorder.recordPermission(session.id, runtime.turn?.id ?? null, {
                tool_call_id: request.toolCall.toolCallId,
                options: request.options,
                outcome: answer.outcome,
              }),
            );
            return answer;
          },
          exited: (exit) => onExit(session.id, runtime, proc, exit),
          stderr: (line) => log(`[agent ${session.id}] ${line}`),
        },
      );
    } catch (error) {
      setState(session.id, runtime, "stopped", `could not start the agent: ${String(error)}`);
      return;
    }
    runtime.process = proc;
    track(session.id, proc);
    void handshake(session, runtime, proc, workspace.root_dir, resume);
  }

  async function handshake(
    session: SessionRecord,
    runtime: Runtime,
    proc: AgentProcess,
    cwd: string,
    resume: boolean,
  ) {
    try {
      const init = await proc.initialize(deps.version, initializeTimeoutMs);
      const canLoad = init.agentCapabilities?.loadSession === true;
      const previous = store.getSession(session.id)?.acp_session_id;
      if (resume && canLoad && previous !== undefined) {
        await proc.loadSession(previous, cwd, initializeTimeoutMs);
        runtime.acpSessionId = previous;
      } else {
        const acpSessionId = await proc.newSession(cwd, initializeTimeoutMs);
        store.setAcpSessionId(session.id, acpSessionId);
        runtime.acpSessionId = acpSessionId;
      }
      if (runtime.process === proc && runtime.state === "starting") {
        setState(session.id, runtime, "active");
      }
    } catch (error) {
      if (runtime.process !== proc) return;
      const message = error instanceof Error ? error.message : String(error);
      log(`[${session.id}] agent handshake failed: ${message}`);
      runtime.stopReason ??= message;
      proc.kill(deps.killGraceMs);
    }
  }

  function track(sessionId: string, proc: AgentProcess) {
    const pgid = proc.pid;
    if (pgid === undefined) return;
    trees.add(proc);
    try {
      deps.groups?.add({ pgid, token: proc.groupToken, sessionId });
    } catch (error) {
      log(`[${sessionId}] could not record the agent's process group: ${String(error)}`);
    }
    void proc.treeEnded.then((gone) => {
      trees.delete(proc);
      // A tree that survived SIGKILL stays recorded for the next start to try again.
      if (gone) deps.groups?.remove(pgid);
      else log(`[${sessionId}] agent process group ${pgid} survived SIGKILL`);
    });
  }

  /** SIGKILL to every agent tree still running, synchronously: for the daemon's exit. */
  function killAllNow(): void {
    for (const proc of trees) proc.killNow();
  }

  /** Claims the turn synchronously; throws the contract's refusal otherwise. */
  function claimTurn(sessionId: string, workspaceId: string | undefined) {
    requireSession(sessionId, workspaceId);
    const runtime = runtimes.get(sessionId);
    if (runtime === undefined || runtime.state !== "active" || runtime.process === undefined) {
      throw refuse.notPromptable();
    }
    if (runtime.turn !== undefined) throw refuse.busy();
    return runtime;
  }

  function beginTurn(runtime: Runtime, kind: Turn["kind"]): Turn {
    const turn: Turn = { id: randomUUID(), startedAt: now().toISOString(), kind };
    runtime.turn = turn;
    return turn;
  }

  /** The newest turn, when it never got its `prompt.completed` (the daemon died mid-turn). */
  function unfinishedTurn(sessionId: string): string | undefined {
    const newest = reader.usageTurns(sessionId).turns.at(-1);
    if (newest === undefined) return undefined;
    const completed = reader.events(sessionId, {
      turn_id: newest.turn_id,
      type: "prompt.completed",
      limit: 1,
    });
    return completed.events.length === 0 ? newest.turn_id : undefined;
  }

  function sendPrompt(sessionId: string, runtime: Runtime, text: string) {
    const proc = runtime.process;
    if (proc === undefined || runtime.acpSessionId === undefined) return;
    proc.prompt(runtime.acpSessionId, text);
    changed(sessionId);
  }

  return {
    onSessionChanged(listener: (sessionId: string) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    defaultAgent(): string | undefined {
      return deps.agents[0]?.name;
    },

    view,

    getSession(sessionId: string, workspaceId?: string): Session {
      return view(requireSession(sessionId, workspaceId));
    },

    findSession(sessionId: string): Session | undefined {
      const found = store.getSession(sessionId);
      return found === undefined ? undefined : view(found);
    },

    listSessions(filter: SessionListFilter): Session[] {
      const records = store.listSessions(
        filter.workspaceId === undefined ? {} : { workspaceId: filter.workspaceId },
      );
      const sessions = records.map(view);
      return filter.state === undefined
        ? sessions
        : sessions.filter((session) => session.state === filter.state);
    },

    isRunningTurn(sessionId: string): boolean {
      return runtimes.get(sessionId)?.turn !== undefined;
    },

    createSession(
      workspaceId: string,
      input: { agent?: string | undefined; name?: string | undefined },
    ): Session {
      if (store.getWorkspace(workspaceId) === undefined) throw refuse.notFound("workspace");
      const agentName = input.agent ?? deps.agents[0]?.name;
      if (agentName === undefined || agentFor(agentName) === undefined) {
        throw refuse.invalid(`unknown agent "${input.agent ?? ""}"`);
      }
      const created = store.createSession({
        workspaceId,
        agentName,
        ...(input.name === undefined ? {} : { name: input.name }),
      });
      const runtime: Runtime = { state: "stopped" };
      runtimes.set(created.id, runtime);
      launch(created, runtime, false);
      return view(requireSession(created.id));
    },

    startSession(sessionId: string, workspaceId?: string): Session {
      const found = requireSession(sessionId, workspaceId);
      const runtime = runtimes.get(sessionId) ?? { state: stateOf(sessionId) };
      runtimes.set(sessionId, runtime);
      if (runtime.process === undefined && runtime.state === "stopped") {
        launch(found, runtime, true);
      }
      return view(requireSession(sessionId));
    },

    stopSession(sessionId: string, workspaceId?: string): Session {
      const found = requireSession(sessionId, workspaceId);
      const runtime = runtimes.get(sessionId);
      if (runtime?.process !== undefined && runtime.state !== "stopping") {
        runtime.stopReason = "stopped by request";
        setState(sessionId, runtime, "stopping");
        runtime.process.kill(deps.killGraceMs);
      }
      return view(found);
    },

    prompt(sessionId: string, workspaceId: string | undefined, text: string): TurnAccepted {
      const runtime = claimTurn(sessionId, workspaceId);
      const turn = beginTurn(runtime, "prompt");
      record(sessionId, "input", () => recorder.recordInput(sessionId, turn.id, text));
      sendPrompt(sessionId, runtime, text);
      return { sessionId, turnId: turn.id };
    },

    compact(
      sessionId: string,
      workspaceId: string | undefined,
      requestedBy: RequestedBy,
    ): CompactAccepted {
      const runtime = claimTurn(sessionId, workspaceId);
      const command = chooseCompactionCommand(reader.availableCommands(sessionId));
      if (command === undefined) throw refuse.unsupported();
      const turn = beginTurn(runtime, "compact");
      record(sessionId, "session.compaction.requested", () =>
        recorder.recordCompactionRequested(sessionId, turn.id, {
          command,
          requested_by: requestedBy,
        }),
      );
      sendPrompt(sessionId, runtime, `/${command}`);
      return { sessionId, turnId: turn.id, command };
    },

    async cancel(sessionId: string, workspaceId?: string): Promise<TurnAccepted> {
      requireSession(sessionId, workspaceId);
      const runtime = runtimes.get(sessionId);
      const turn = runtime?.turn;
      if (runtime === undefined || turn === undefined) throw refuse.idle();
      if (runtime.process !== undefined && runtime.acpSessionId !== undefined) {
        await runtime.process.cancel(runtime.acpSessionId).catch((error: unknown) => {
          log(`[${sessionId}] session/cancel failed: ${String(error)}`);
        });
      }
      return { sessionId, turnId: turn.id };
    },

    /**
     * At daemon start: sessions whose last state is not `stopped` lost their agent when the
     * daemon died. Close what they left open so nothing spins forever.
     */
    recoverInterrupted(): number {
      let recovered = 0;
      for (const session of store.listSessions({})) {
        if (runtimes.has(session.id)) continue;
        if (reader.lastState(session.id).state === "stopped") continue;
        // The agent died with the daemon: close what it left open, as onExit would have.
        const turnId = unfinishedTurn(session.id);
        record(session.id, "compaction close", () =>
          recorder.closeOpenCompactions(session.id, turnId ?? null),
        );
        if (turnId !== undefined) {
          record(session.id, "prompt.completed", () =>
            recorder.recordPromptCompleted(session.id, turnId, { stop_reason: "agent_exited" }),
          );
        }
        record(session.id, "session.state", () =>
          recorder.recordState(session.id, "stopped", "daemon restarted"),
        );
        recovered += 1;
      }
      return recovered;
    },

    /**
     * Stops every agent and waits (bounded) for each whole process tree to end; whatever is
     * left at the deadline gets SIGKILL before this returns.
     */
    async shutdown(timeoutMs = 3000): Promise<void> {
      const graceMs = Math.min(deps.killGraceMs ?? 1000, timeoutMs);
      for (const [sessionId, runtime] of runtimes) {
        if (runtime.process === undefined) continue;
        runtime.stopReason ??= "daemon stopped"; // a stop already asked for keeps its reason
        if (runtime.state !== "stopping") setState(sessionId, runtime, "stopping");
      }
      const ended = [...trees].map((proc) => {
        proc.kill(graceMs);
        return proc.treeEnded;
      });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(ended),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
        }),
      ]);
      clearTimeout(timer);
      killAllNow();
    },

    killAllNow,
  };
}
