// The agent host: one child process per running session, its lifecycle, and its turns.
//
// Everything the agent says is recorded in receive order. The raw tap in agent-process.ts
// hands each line over synchronously and every recorder call is one synchronous SQLite
// transaction, so a session's work is serialized by construction: its "queue" is the
// order of lines on the child's stdout, and no handler can overtake another.
// Prompt and compact requests are decided synchronously too (check and claim the turn
// without an `await` between), so two concurrent requests can never both be accepted.
import { createHash, randomUUID } from "node:crypto";
import type { z } from "zod";
import type { AgentList } from "../../src/contract/agent-session";
import {
  type ApproveBody,
  type ApproveResult,
  type CompactionCommand,
  chooseCompactionCommand,
  type DaemonCancelResult,
  type DaemonPromptResultEnvelope,
  type PromptMode,
} from "../../src/contract/commands";

type PromptResult = z.infer<typeof DaemonPromptResultEnvelope>["prompt"];
type CancelResult = z.infer<typeof DaemonCancelResult>;

import type { DaemonSession, SessionState } from "../../src/contract/session";
import { DEFAULT_REPLAY_BUDGET, type ReplayBudget } from "../domain/bounded-replay";
import type {
  Ledger,
  LedgerRow,
  PromptAdmission,
  RequestedBy,
  SessionRecord,
} from "../domain/session-recorder-api";
import type { AgentGroupRegistry } from "./agent-groups";
import { type AgentCommand, type AgentProcess, spawnAgent } from "./agent-process";
import { createPermissionBroker, type PermissionPolicy } from "./permission-broker";
import { completionOf } from "./prompt-completion";
import { derivedName, lineageOf, successorOf } from "./session-lineage";
import { refuse } from "./session-refusal";
import { createReplayKeeper } from "./session-replay";

/** How long each handshake step (initialize, session/new, session/load) may take. */
export const INITIALIZE_TIMEOUT_MS = 30_000;

/** Rows that change what a session view shows (commands, title, modes, options, model). */
const SESSION_FIELD_ROWS: ReadonlySet<string> = new Set([
  "available_commands",
  "session.title",
  "session.mode",
  "session.modes",
  "session.config_options",
  "usage",
]);

export type NamedAgent = AgentCommand & {
  name: string;
  /** The built-in preset it came from (`claude`, `codex`, `demo`), if any. */
  preset?: string;
};

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null && "message" in error) {
    return String((error as { message: unknown }).message);
  }
  return String(error);
}

export type SessionHostDeps = {
  ledger: Ledger;
  /** In configuration order; the first is the default. */
  agents: readonly NamedAgent[];
  version: string;
  /** Where agent processes run (relative agent commands resolve from here). */
  agentCwd: string;
  initializeTimeoutMs?: number;
  /** Who answers `session/request_permission` (`--permissions`, default `ask`). */
  permissions?: PermissionPolicy;
  /** How long a stopped agent gets between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /** Where live agent process groups are recorded, so a restart can reap them. */
  groups?: AgentGroupRegistry;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  now?: () => Date;
  /** The one budget of every bounded replay (ADR 0085). */
  replayBudget?: ReplayBudget;
  /** The session tools (MCP) the daemon offers agents; absent, no agent gets any. */
  sessionTools?: SessionToolsOffer;
};

/** What the host needs of the session tools server (server/mcp/). */
export type SessionToolsOffer = {
  /** The `mcpServers` entry that gives this session's agent its tools. */
  serverFor(sessionId: string, workspaceId: string): McpServerEntry;
  /** The session's agent is gone: its secret stops working. */
  revoke(sessionId: string): void;
};
export type McpServerEntry = {
  type: "http";
  name: string;
  url: string;
  headers: { name: string; value: string }[];
};

export type DeriveInput = {
  agent?: string | undefined;
  name?: string | undefined;
  /** The new session's tool policy; the daemon's default (offered) when absent. */
  sessionTools?: boolean | undefined;
};

type Turn = { id: string; startedAt: string; kind: "prompt" | "compact" };

type Runtime = {
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

export type TurnAccepted = { sessionId: string; turnId: string };
export type CompactAccepted = TurnAccepted & { command: CompactionCommand };

/** A prompt request as the host takes it (the route parsed `PromptBody`). */
export type PromptRequest = {
  text: string;
  messageId: string;
  idempotencyKey: string;
  mode?: PromptMode | undefined;
  /** Attribution of a typed compaction command (ADR 0092). */
  requestedBy?: RequestedBy | undefined;
};

/** CompozyOS answers a fresh prompt 200 and a replayed (or queued) one 202. */
export type PromptAnswer = { status: 200 | 202; prompt: PromptResult };

export type SessionListFilter = {
  workspaceId?: string | undefined;
  state?: SessionState | undefined;
  agentName?: string | undefined;
  archive?: "exclude" | "only" | "include" | undefined;
};

/** CompozyOS's `stop_reason` for the daemon's own stop reasons (the text is `stop_detail`). */
function stopReasonOf(reason: string | undefined): DaemonSession["stop_reason"] {
  if (reason === undefined) return undefined;
  if (reason === "stopped by request") return "user_canceled";
  if (reason === "daemon stopped" || reason === "daemon restarted") return "shutdown";
  if (reason.startsWith("agent exited")) return "agent_crashed";
  return "error";
}

/** A content hash of a command list: the catalog's `revision`. */
export function commandsRevision(commands: readonly unknown[]): string {
  return `r-${createHash("sha256").update(JSON.stringify(commands)).digest("hex").slice(0, 16)}`;
}

function promptFingerprint(request: PromptRequest): string {
  return createHash("sha256")
    .update(JSON.stringify([request.messageId, request.text, request.mode ?? ""]))
    .digest("hex");
}

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
  const permissions = createPermissionBroker({
    recorder,
    policy: deps.permissions ?? "ask",
    now,
    changed: (sessionId) => changed(sessionId),
    record: (sessionId, what, write) => record(sessionId, what, write),
  });
  const replays = createReplayKeeper({
    ledger: deps.ledger,
    budget: deps.replayBudget ?? DEFAULT_REPLAY_BUDGET,
    historyToolOffered: (sessionId) => toolsOffered(sessionId),
    log,
  });

  /** A session's agent gets the session tools unless its tool policy leaves them out. */
  function toolsOffered(sessionId: string, policy?: boolean): boolean {
    if (deps.sessionTools === undefined) return false;
    return policy ?? deps.ledger.settings.sessionToolsOf(sessionId) ?? true;
  }

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

  function stateOf(sessionId: string): SessionState {
    return runtimes.get(sessionId)?.state ?? reader.lastState(sessionId).state;
  }

  /**
   * The session as CompozyOS sends it, every always-present field included. The list leaves
   * out the commands (ADR 0092), modes and config options; the name is the user's, else the
   * agent's title (ADR 0090).
   */
  /** The name a session shows: its own, else the agent's title; null once deleted. */
  function shownName(sessionId: string): string | undefined | null {
    const found = store.getSession(sessionId);
    if (found === undefined) return null;
    const title = reader.sessionSettings(sessionId).title;
    return found.name ?? (title ? title : undefined);
  }

  function view(record: SessionRecord, options: { commands?: boolean } = {}): DaemonSession {
    const runtime = runtimes.get(record.id);
    const settings = reader.sessionSettings(record.id);
    const turn = runtime?.turn;
    const last = runtime === undefined ? reader.lastState(record.id) : undefined;
    const state = runtime?.state ?? last?.state ?? "stopped";
    const session: DaemonSession = {
      id: record.id,
      workspace_id: record.workspace_id,
      agent_name: record.agent_name,
      type: "user",
      state,
      available_commands: options.commands === false ? [] : reader.availableCommands(record.id),
      archived_at: record.archived_at ?? null,
      attachable: false,
      badge: "",
      pending_interactions: permissions.pendingOf(record.id),
      runtime: {
        status: state === "active" ? "ready" : state,
        selection_revision: 0,
        ...(runtime?.acpSessionId === undefined ? {} : { acp_session_id: runtime.acpSessionId }),
        ...(runtime?.supportsLoad === undefined
          ? {}
          : { acp_caps: { supports_load_session: runtime.supportsLoad } }),
      },
      transcript_epoch: reader.historyVersion(record.id).epoch,
      // Modes and options are a few KB for Claude: the detail carries them, the list not.
      ...(settings.modes === undefined || options.commands === false
        ? {}
        : { modes: settings.modes }),
      ...(settings.config_options === undefined || options.commands === false
        ? {}
        : { config_options: settings.config_options }),
      ...(settings.model === undefined ? {} : { model: settings.model }),
      created_at: record.created_at,
      updated_at: record.updated_at,
    };
    const workspace = store.getWorkspace(record.workspace_id);
    if (workspace !== undefined) session.workspace_path = workspace.root_dir;
    // The user's name wins; else the agent's title (`session_info_update`, ADR 0090).
    const name = record.name ?? (settings.title ? settings.title : undefined);
    if (name !== undefined) session.name = name;
    if (options.commands !== false) {
      const lineage = lineageOf({ settings: deps.ledger.settings, nameOf: shownName }, record.id);
      if (lineage !== undefined) session.derivation = lineage;
    }
    if (turn !== undefined) {
      const elapsed = Math.max(0, now().getTime() - Date.parse(turn.startedAt));
      session.activity = {
        turn_id: turn.id,
        // A Compact now turn is the daemon's own maintenance turn, not the user's input.
        turn_source: turn.kind === "compact" ? "synthetic" : "user",
        turn_started_at: turn.startedAt,
        elapsed_ms: elapsed,
        elapsed_seconds: Math.floor(elapsed / 1000),
        idle_seconds: 0,
        iteration_current: 1,
        iteration_max: 0,
      };
    }
    if (state === "stopped") {
      const reason = last?.reason ?? reader.lastState(record.id).reason;
      const stopReason = stopReasonOf(reason);
      if (stopReason !== undefined) session.stop_reason = stopReason;
      if (reason !== undefined) session.stop_detail = reason;
    }
    return session;
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
          batch: (slice) => recorder.batch(slice),
          update: (update, line, replayed) => {
            // A replayed frame is history, not part of a turn that may already be claimed.
            const turnId = replayed ? null : (runtime.turn?.id ?? null);
            const rows = record(session.id, "session/update", () =>
              recorder.recordUpdate(session.id, turnId, update, line),
            );
            if (rows.some((row) => SESSION_FIELD_ROWS.has(row.type))) changed(session.id);
          },
          extension: (method, params) => {
            record(session.id, "agent.extension", () =>
              recorder.recordExtension(session.id, runtime.turn?.id ?? null, method, params),
            );
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
          permission: (request) =>
            permissions.request(session.id, runtime.turn?.id ?? null, request),
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
      runtime.supportsLoad = canLoad;
      const previous = store.getSession(session.id)?.acp_session_id;
      // ACP: an HTTP MCP server goes only to an agent that says it takes one.
      const mcpServers =
        deps.sessionTools !== undefined &&
        toolsOffered(session.id) &&
        init.agentCapabilities?.mcpCapabilities?.http === true
          ? [deps.sessionTools.serverFor(session.id, session.workspace_id)]
          : [];
      if (resume && canLoad && previous !== undefined) {
        const setup = await proc.loadSession(previous, cwd, initializeTimeoutMs, mcpServers);
        runtime.acpSessionId = previous;
        record(session.id, "session setup", () => recorder.recordSessionSetup(session.id, setup));
      } else {
        const setup = await proc.newSession(cwd, initializeTimeoutMs, mcpServers);
        store.setAcpSessionId(session.id, setup.sessionId);
        runtime.acpSessionId = setup.sessionId;
        record(session.id, "session setup", () => recorder.recordSessionSetup(session.id, setup));
        // The new agent session knows nothing of this one: it is owed a replay.
        // A prompt that resumed the session is already recorded; it is the request, not
        // part of the replay.
        replays.agentSessionStarted(
          session.id,
          setup.sessionId,
          runtime.pendingPrompt === undefined ? undefined : runtime.turn?.id,
        );
      }
      if (runtime.process === proc && runtime.state === "starting") {
        setState(session.id, runtime, "active");
        // A prompt that resumed the session goes out now, as its own turn.
        const pending = runtime.pendingPrompt;
        runtime.pendingPrompt = undefined;
        if (pending !== undefined && runtime.turn !== undefined) {
          sendPrompt(session.id, runtime, pending);
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

  function compactTurn(
    sessionId: string,
    workspaceId: string | undefined,
    requestedBy: RequestedBy,
    typed?: { admission: (turnId: string) => PromptAdmission; text: string; messageId: string },
  ): CompactAccepted {
    const runtime = claimTurn(sessionId, workspaceId);
    const command = chooseCompactionCommand(reader.availableCommands(sessionId));
    if (command === undefined) throw refuse.unsupported();
    const turn = beginTurn(runtime, "compact");
    record(sessionId, "session.compaction.requested", () =>
      recorder.recordCompactionRequested(
        sessionId,
        turn.id,
        {
          command,
          requested_by: requestedBy,
          ...(typed === undefined
            ? {}
            : { typed: { text: typed.text.trim(), message_id: typed.messageId } }),
        },
        typed?.admission(turn.id),
      ),
    );
    sendPrompt(sessionId, runtime, `/${command}`, true);
    return { sessionId, turnId: turn.id, command };
  }

  /** A prompt accepted into turn `turnId`, in CompozyOS's `SendPromptResultPayload` shape. */
  function acceptedPrompt(request: PromptRequest, turnId: string): PromptResult {
    return {
      status: "accepted",
      ...(request.mode === undefined ? {} : { mode: request.mode }),
      delivery: "direct",
      message_id: request.messageId,
      idempotency_key: request.idempotencyKey,
      replayed: false,
      new_turn_id: turnId,
    };
  }

  /** What is stored with a send so a retry with the same key answers the same. */
  function admissionOf(
    request: PromptRequest,
    fingerprint: string,
    result: PromptResult,
  ): PromptAdmission {
    return {
      idempotency_key: request.idempotencyKey,
      message_id: request.messageId,
      fingerprint,
      result,
    };
  }

  /**
   * The first answer to a send with this idempotency key, marked replayed (nothing runs
   * twice); a different message under the same key is refused.
   */
  function answeredBefore(
    sessionId: string,
    request: PromptRequest,
    fingerprint: string,
  ): PromptAnswer | undefined {
    const earlier = reader.promptAdmission(sessionId, request.idempotencyKey);
    if (earlier === undefined) return undefined;
    if (earlier.fingerprint !== fingerprint) {
      throw refuse.idempotencyConflict(request.idempotencyKey);
    }
    return { status: 202, prompt: { ...(earlier.result as PromptResult), replayed: true } };
  }

  /**
   * A typed `/compact` (ADR 0092): Compact now, answered as a prompt, with the prompt's
   * idempotency (a retried send replays the first answer instead of compacting twice).
   */
  function compactAsPrompt(
    sessionId: string,
    workspaceId: string | undefined,
    request: PromptRequest,
  ): PromptAnswer {
    const fingerprint = promptFingerprint(request);
    const earlier = answeredBefore(sessionId, request, fingerprint);
    if (earlier !== undefined) return earlier;
    const accepted = compactTurn(sessionId, workspaceId, request.requestedBy ?? "http", {
      text: request.text,
      messageId: request.messageId,
      admission: (turnId) => admissionOf(request, fingerprint, acceptedPrompt(request, turnId)),
    });
    return { status: 200, prompt: acceptedPrompt(request, accepted.turnId) };
  }

  /** The running agent of an active session, for a request outside a turn. */
  function liveAgent(sessionId: string) {
    const runtime = runtimes.get(sessionId);
    const proc = runtime?.process;
    if (runtime?.state !== "active" || proc === undefined || runtime.acpSessionId === undefined) {
      throw refuse.notPromptable();
    }
    return { proc, acpSessionId: runtime.acpSessionId };
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

  /** An ordinary prompt carries an owed replay; a maintenance turn never does (ADR 0086). */
  function sendPrompt(sessionId: string, runtime: Runtime, text: string, maintenance = false) {
    const proc = runtime.process;
    const acpSessionId = runtime.acpSessionId;
    if (proc === undefined || acpSessionId === undefined) return;
    if (maintenance) proc.prompt(acpSessionId, text);
    else {
      proc.prompt(acpSessionId, replays.promptText(sessionId, acpSessionId, text));
      replays.delivered(sessionId, acpSessionId);
    }
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

    getSession(sessionId: string, workspaceId?: string): DaemonSession {
      return view(requireSession(sessionId, workspaceId));
    },

    findSession(sessionId: string): DaemonSession | undefined {
      const found = store.getSession(sessionId);
      return found === undefined ? undefined : view(found);
    },

    listSessions(filter: SessionListFilter): DaemonSession[] {
      const archive = filter.archive ?? "exclude";
      const records = store
        .listSessions(filter.workspaceId === undefined ? {} : { workspaceId: filter.workspaceId })
        .filter((record) => {
          if (filter.agentName !== undefined && record.agent_name !== filter.agentName) {
            return false;
          }
          const archived = record.archived_at !== undefined;
          return archive === "include" || (archive === "only" ? archived : !archived);
        });
      const sessions = records.map((found) => view(found, { commands: false }));
      return filter.state === undefined
        ? sessions
        : sessions.filter((session) => session.state === filter.state);
    },

    isRunningTurn(sessionId: string): boolean {
      return runtimes.get(sessionId)?.turn !== undefined;
    },

    createSession(
      workspaceId: string,
      input: { agentName?: string | undefined; name?: string | undefined },
    ): DaemonSession {
      if (store.getWorkspace(workspaceId) === undefined) throw refuse.notFound("workspace");
      const agentName = input.agentName ?? deps.agents[0]?.name;
      if (agentName === undefined || agentFor(agentName) === undefined) {
        throw refuse.invalid(`unknown agent "${input.agentName ?? ""}"`);
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

    /** What a continue or fork of this session would carry (`derive/preview`). */
    derivePreview(sourceId: string, workspaceId: string, sessionTools?: boolean) {
      const source = requireSession(sourceId, workspaceId);
      return replays.build(sourceId, "fork", {
        sourceAgent: source.agent_name,
        historyToolOffered: toolsOffered("", sessionTools),
      });
    },

    /**
     * Continue or fork: a new session in the same workspace (optionally with another agent)
     * that owes its first ordinary prompt the source's replay. Continue also stops the
     * source, whose conversation moves on in the new session; fork leaves it be (ADR 0087).
     */
    deriveSession(
      sourceId: string,
      workspaceId: string,
      kind: "continue" | "fork",
      input: DeriveInput,
    ): DaemonSession {
      const source = requireSession(sourceId, workspaceId);
      const agentName = input.agent ?? source.agent_name;
      if (agentFor(agentName) === undefined) throw refuse.invalid(`unknown agent "${agentName}"`);
      if (kind === "continue" && runtimes.get(sourceId)?.turn !== undefined) throw refuse.busy();
      // One successor per conversation: a continued session can be forked, not continued.
      const successor = successorOf(deps.ledger.settings, sourceId);
      if (kind === "continue" && successor !== undefined) throw refuse.continued(successor);
      const name = input.name ?? derivedName(shownName(sourceId) ?? undefined, kind);
      const replay = replays.build(sourceId, kind, {
        sourceAgent: source.agent_name,
        historyToolOffered: toolsOffered("", input.sessionTools),
      });
      const created = store.createSession({
        workspaceId,
        agentName,
        ...(name === undefined ? {} : { name }),
      });
      deps.ledger.settings.recordDerivation(created.id, sourceId, kind);
      const sourceName = shownName(sourceId);
      recorder.recordReplayCarried(created.id, {
        source_session_id: sourceId,
        ...(typeof sourceName === "string" ? { source_name: sourceName } : {}),
        kind,
        message_count: replay.messageCount,
        omitted_count: replay.omittedCount,
        truncated: replay.truncated,
        replay_bytes: replay.bytes,
        messages: replay.messages,
      });
      if (input.sessionTools !== undefined) {
        deps.ledger.settings.setSessionTools(created.id, input.sessionTools);
      }
      // Bound to no agent session yet: the first one started for it takes it over.
      replays.owe(created.id, "", kind, replay);
      if (kind === "continue") this.stopSession(sourceId, workspaceId);
      const runtime: Runtime = { state: "stopped" };
      runtimes.set(created.id, runtime);
      launch(created, runtime, false);
      return view(requireSession(created.id));
    },

    renameSession(sessionId: string, workspaceId: string, name: string): DaemonSession {
      requireSession(sessionId, workspaceId);
      store.renameSession(sessionId, name);
      changed(sessionId);
      return view(requireSession(sessionId));
    },

    stopSession(sessionId: string, workspaceId?: string): void {
      requireSession(sessionId, workspaceId);
      const runtime = runtimes.get(sessionId);
      if (runtime?.process !== undefined && runtime.state !== "stopping") {
        runtime.stopReason = "stopped by request";
        // Answered before the kill, so a request can never be approved into a dying agent.
        permissions.closeSession(sessionId, "agent stopped by request");
        setState(sessionId, runtime, "stopping");
        runtime.process.kill(deps.killGraceMs);
      }
    },

    /** Stops the agent if it runs and removes the session with all of its history. */
    deleteSession(sessionId: string, workspaceId: string): void {
      requireSession(sessionId, workspaceId);
      const runtime = runtimes.get(sessionId);
      runtimes.delete(sessionId);
      const proc = runtime?.process;
      if (runtime !== undefined) runtime.process = undefined; // its exit records nothing now
      proc?.kill(deps.killGraceMs);
      store.deleteSession(sessionId);
      changed(sessionId);
    },

    /** CompozyOS archives only a stopped session. */
    archiveSession(sessionId: string, workspaceId: string, archived: boolean): DaemonSession {
      const found = requireSession(sessionId, workspaceId);
      if (archived && found.archived_at === undefined) {
        if (stateOf(sessionId) !== "stopped") throw refuse.notStopped();
        store.setArchivedAt(sessionId, now().toISOString());
      }
      if (!archived && found.archived_at !== undefined) store.setArchivedAt(sessionId, null);
      changed(sessionId);
      return view(requireSession(sessionId));
    },

    /**
     * Sends a prompt. A key seen before answers with the first send's result (`replayed`),
     * never a second turn; the same key for a different request is a conflict. A stopped
     * session is resumed first (`session/load` when the agent supports it) and the prompt
     * goes out once it is active.
     */
    prompt(
      sessionId: string,
      workspaceId: string | undefined,
      request: PromptRequest,
    ): PromptAnswer {
      const found = requireSession(sessionId, workspaceId);
      // A continued session is read-only: sending there would fork the conversation silently.
      const successor = successorOf(deps.ledger.settings, sessionId);
      if (successor !== undefined) throw refuse.continued(successor);
      // Typing exactly the advertised compaction command is Compact now (ADR 0092).
      const command = chooseCompactionCommand(reader.availableCommands(sessionId));
      if (command !== undefined && request.text.trim() === `/${command}`) {
        return compactAsPrompt(sessionId, workspaceId, request);
      }
      const fingerprint = promptFingerprint(request);
      const earlier = answeredBefore(sessionId, request, fingerprint);
      if (earlier !== undefined) return earlier;
      if (found.archived_at !== undefined) throw refuse.archived();
      let runtime = runtimes.get(sessionId);
      if (runtime === undefined) {
        runtime = { state: stateOf(sessionId) };
        runtimes.set(sessionId, runtime);
      }
      if (runtime.turn !== undefined) throw refuse.busy();
      const resuming = runtime.process === undefined && runtime.state === "stopped";
      const ready = runtime.state === "active" && runtime.process !== undefined;
      if (!ready && !resuming && runtime.state !== "starting") throw refuse.notPromptable();
      const turn = beginTurn(runtime, "prompt");
      const result = acceptedPrompt(request, turn.id);
      const rows = record(sessionId, "input", () =>
        recorder.recordPrompt(
          sessionId,
          turn.id,
          request.text,
          admissionOf(request, fingerprint, result),
        ),
      );
      if (rows.length === 0) {
        // Not recorded (e.g. a concurrent send with the same key won): nothing was claimed.
        runtime.turn = undefined;
        const winner = reader.promptAdmission(sessionId, request.idempotencyKey);
        if (winner?.fingerprint === fingerprint) {
          return { status: 202, prompt: { ...(winner.result as PromptResult), replayed: true } };
        }
        throw refuse.busy();
      }
      if (ready) sendPrompt(sessionId, runtime, request.text);
      else {
        runtime.pendingPrompt = request.text;
        if (resuming) launch(found, runtime, true);
        changed(sessionId);
      }
      return { status: 200, prompt: result };
    },

    compact: compactTurn,

    /** Cancels the running turn; idempotent, like CompozyOS's: nothing running is an answer. */
    async cancel(sessionId: string, workspaceId?: string): Promise<CancelResult> {
      requireSession(sessionId, workspaceId);
      const runtime = runtimes.get(sessionId);
      const turn = runtime?.turn;
      if (runtime === undefined || turn === undefined) {
        return { session_id: sessionId, outcome: "nothing-in-flight" };
      }
      if (runtime.pendingPrompt !== undefined) {
        // Never sent (the session is still resuming): the turn ends here.
        runtime.pendingPrompt = undefined;
        runtime.turn = undefined;
        record(sessionId, "prompt.completed", () =>
          recorder.recordPromptCompleted(sessionId, turn.id, { stop_reason: "cancelled" }),
        );
        changed(sessionId);
      } else if (runtime.process !== undefined && runtime.acpSessionId !== undefined) {
        const cancelled = runtime.process.cancel(runtime.acpSessionId);
        // ACP: after session/cancel, every pending permission request answers `cancelled`.
        permissions.cancelTurn(sessionId);
        await cancelled.catch((error: unknown) => {
          log(`[${sessionId}] session/cancel failed: ${String(error)}`);
        });
      }
      return { session_id: sessionId, outcome: "canceled", turn_id: turn.id };
    },

    /** `POST …/approve`: the person's answer to a pending permission request. */
    approve(
      sessionId: string,
      workspaceId: string | undefined,
      body: ApproveBody,
      resolvedBy: RequestedBy,
    ): ApproveResult {
      requireSession(sessionId, workspaceId);
      return permissions.approve(sessionId, body, resolvedBy);
    },

    /** `POST …/mode`: ACP `session/set_mode`, for a mode the agent offered. */
    async setMode(sessionId: string, workspaceId: string | undefined, modeId: string) {
      requireSession(sessionId, workspaceId);
      const { proc, acpSessionId } = liveAgent(sessionId);
      const modes = reader.sessionSettings(sessionId).modes;
      if (modes === undefined || !modes.available_modes.some((mode) => mode.id === modeId)) {
        const offered = modes?.available_modes.map((mode) => mode.id).join(", ") || "none";
        throw refuse.invalid(`the agent does not offer mode "${modeId}"`, {
          mode_id: `not offered; the modes are: ${offered}`,
        });
      }
      try {
        await proc.setMode(acpSessionId, modeId);
      } catch (error) {
        throw refuse.agentFailed(`the agent refused session/set_mode: ${describeError(error)}`);
      }
      record(sessionId, "session.mode", () => recorder.recordModeSet(sessionId, modeId));
      changed(sessionId);
      return view(requireSession(sessionId));
    },

    /** `POST …/config`: ACP `session/set_config_option`, for a value the agent offered. */
    async setConfigOption(
      sessionId: string,
      workspaceId: string | undefined,
      configId: string,
      value: string | boolean,
    ) {
      requireSession(sessionId, workspaceId);
      const { proc, acpSessionId } = liveAgent(sessionId);
      const option = reader
        .sessionSettings(sessionId)
        .config_options?.find((candidate) => candidate.id === configId);
      if (option === undefined)
        throw refuse.invalid(`the agent has no config option "${configId}"`);
      const valid =
        option.kind === "boolean"
          ? typeof value === "boolean"
          : typeof value === "string" &&
            (option.values === undefined || option.values.some((entry) => entry.value === value));
      if (!valid) {
        const offered = option.values?.map((entry) => entry.value).join(", ") ?? option.kind;
        throw refuse.invalid(`"${String(value)}" is not a value of "${configId}"`, {
          value: `not offered; the values are: ${offered}`,
        });
      }
      let answered: unknown;
      try {
        answered = await proc.setConfigOption(acpSessionId, configId, value);
      } catch (error) {
        throw refuse.agentFailed(
          `the agent refused session/set_config_option: ${describeError(error)}`,
        );
      }
      record(sessionId, "session.config_options", () =>
        Array.isArray(answered)
          ? recorder.recordSessionSetup(sessionId, { configOptions: answered })
          : [],
      );
      changed(sessionId);
      return view(requireSession(sessionId));
    },

    /** `GET /api/agents`: the configured agents, default first. */
    agents(): AgentList {
      return {
        agents: deps.agents.map((agent, index) => ({
          name: agent.name,
          default: index === 0,
          ...(agent.preset === undefined ? {} : { preset: agent.preset }),
        })),
      };
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
        for (const open of reader.unresolvedPermissions(session.id)) {
          record(session.id, "permission.resolved", () =>
            recorder.recordPermissionResolved(session.id, open.turn_id, {
              request_id: open.request_id,
              tool_call_id: open.tool_call_id,
              outcome: "cancelled",
              status: "orphaned",
              resolved_by: "daemon",
              reason: "daemon restarted",
            }),
          );
        }
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
