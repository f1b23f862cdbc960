// Launch and handshake: spawn the session's agent, wire what it says into the ledger (in
// receive order: each line is one synchronous recorder call), run `initialize` and
// `session/new` or `session/load`, and close the session when the process ends.
import type { SessionRecord } from "../../domain/session-recorder-api";
import { type AgentEvents, type AgentProcess, spawnAgent } from "../agent-process";
import type { PermissionBroker } from "../permission-broker";
import { completionOf } from "../prompt-completion";
import type { ReplayKeeper } from "../session-replay";
import type { AgentTrees } from "./agent-trees";
import type { HostContext, Runtime } from "./host-context";
import type { Turns } from "./turns";

/** Rows that change what a session view shows (commands, title, modes, options, model). */
const SESSION_FIELD_ROWS: ReadonlySet<string> = new Set([
  "available_commands",
  "session.title",
  "session.mode",
  "session.modes",
  "session.config_options",
  "usage",
]);

type Exit = { code: number | null; signal: string | null; error?: string };

function exitReason(exit: Exit) {
  if (exit.error !== undefined) return exit.error;
  if (exit.signal !== null) return `agent exited on signal ${exit.signal}`;
  return `agent exited with code ${exit.code ?? "unknown"}`;
}

export type AgentLauncher = ReturnType<typeof createAgentLauncher>;

export function createAgentLauncher(
  ctx: HostContext,
  parts: { permissions: PermissionBroker; replays: ReplayKeeper; turns: Turns; trees: AgentTrees },
) {
  const { deps, recorder, record, log } = ctx;
  const { permissions, replays } = parts;

  /** What the agent says, recorded against the session's current turn. */
  function eventsOf(
    session: SessionRecord,
    runtime: Runtime,
    exited: (exit: Exit) => void,
  ): AgentEvents {
    const id = session.id;
    const turnId = () => runtime.turn?.id ?? null;
    return {
      batch: (slice) => recorder.batch(slice),
      update: (update, line, replayed) => {
        // A replayed frame is history, not part of a turn that may already be claimed.
        const turn = replayed ? null : turnId();
        const rows = record(id, "session/update", () =>
          recorder.recordUpdate(id, turn, update, line),
        );
        if (rows.some((row) => SESSION_FIELD_ROWS.has(row.type))) ctx.changed(id);
      },
      extension: (method, params) => {
        record(id, "agent.extension", () => recorder.recordExtension(id, turnId(), method, params));
      },
      invalidFrame: (raw, error) => {
        record(id, "agent.invalid_frame", () =>
          recorder.recordInvalidFrame(id, turnId(), raw, error),
        );
      },
      promptAnswered: (outcome) => {
        const turn = runtime.turn;
        if (turn === undefined) return;
        if (!outcome.ok) log(`[${id}] session/prompt failed: ${outcome.error}`);
        record(id, "prompt.completed", () =>
          recorder.recordPromptCompleted(id, turn.id, completionOf(outcome)),
        );
        runtime.turn = undefined;
        ctx.changed(id);
      },
      permission: (request) => permissions.request(id, turnId(), request),
      exited,
      stderr: (line) => log(`[agent ${id}] ${line}`),
    };
  }

  function onExit(sessionId: string, runtime: Runtime, proc: AgentProcess, exit: Exit) {
    if (runtime.process !== proc) return;
    const turn = runtime.turn;
    permissions.closeSession(
      sessionId,
      runtime.stopReason === undefined ? "agent exited" : `agent stopped (${runtime.stopReason})`,
    );
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
    deps.sessionTools?.revoke(sessionId);
    const reason = runtime.stopReason ?? exitReason(exit);
    runtime.stopReason = undefined;
    ctx.setState(sessionId, runtime, "stopped", reason);
  }

  /** The agent's ACP session: loaded when resuming an agent that can, else a new one. */
  async function openAgentSession(
    session: SessionRecord,
    runtime: Runtime,
    proc: AgentProcess,
    cwd: string,
    resume: boolean,
  ) {
    const timeoutMs = ctx.initializeTimeoutMs;
    const init = await proc.initialize(deps.version, timeoutMs);
    const canLoad = init.agentCapabilities?.loadSession === true;
    runtime.supportsLoad = canLoad;
    const previous = ctx.store.getSession(session.id)?.acp_session_id;
    // ACP: an HTTP MCP server goes only to an agent that says it takes one.
    const mcpServers =
      deps.sessionTools !== undefined &&
      ctx.toolsOffered(session.id) &&
      init.agentCapabilities?.mcpCapabilities?.http === true
        ? [deps.sessionTools.serverFor(session.id, session.workspace_id)]
        : [];
    if (resume && canLoad && previous !== undefined) {
      const setup = await proc.loadSession(previous, cwd, timeoutMs, mcpServers);
      runtime.acpSessionId = previous;
      record(session.id, "session setup", () => recorder.recordSessionSetup(session.id, setup));
      return;
    }
    const setup = await proc.newSession(cwd, timeoutMs, mcpServers);
    ctx.store.setAcpSessionId(session.id, setup.sessionId);
    runtime.acpSessionId = setup.sessionId;
    record(session.id, "session setup", () => recorder.recordSessionSetup(session.id, setup));
    // The new agent session knows nothing of this one: it is owed a replay. A prompt that
    // resumed the session is already recorded; it is the request, not part of the replay.
    replays.agentSessionStarted(
      session.id,
      setup.sessionId,
      runtime.pendingPrompt === undefined ? undefined : runtime.turn?.id,
    );
  }

  async function handshake(
    session: SessionRecord,
    runtime: Runtime,
    proc: AgentProcess,
    cwd: string,
    resume: boolean,
  ) {
    try {
      await openAgentSession(session, runtime, proc, cwd, resume);
      if (runtime.process === proc && runtime.state === "starting") {
        ctx.setState(session.id, runtime, "active");
        // A prompt that resumed the session goes out now, as its own turn.
        const pending = runtime.pendingPrompt;
        runtime.pendingPrompt = undefined;
        if (pending !== undefined && runtime.turn !== undefined) {
          parts.turns.sendPrompt(session.id, runtime, pending);
        }
      }
    } catch (error) {
      if (runtime.process !== proc) return;
      const message = error instanceof Error ? error.message : String(error);
      log(`[${session.id}] agent handshake failed: ${message}`);
      runtime.stopReason ??= message;
      proc.kill(deps.killGraceMs);
    }
  }

  return {
    /** Starts the session's agent; `resume` loads its earlier ACP session when it can. */
    launch(session: SessionRecord, runtime: Runtime, resume: boolean): void {
      const agent = ctx.agentFor(session.agent_name);
      const workspace = ctx.store.getWorkspace(session.workspace_id);
      ctx.setState(session.id, runtime, "starting");
      if (agent === undefined || workspace === undefined) {
        ctx.setState(
          session.id,
          runtime,
          "stopped",
          `agent "${session.agent_name}" is not configured`,
        );
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
          eventsOf(session, runtime, (exit) => onExit(session.id, runtime, proc, exit)),
        );
      } catch (error) {
        ctx.setState(session.id, runtime, "stopped", `could not start the agent: ${String(error)}`);
        return;
      }
      runtime.process = proc;
      parts.trees.track(session.id, proc);
      void handshake(session, runtime, proc, workspace.root_dir, resume);
    },
  };
}
