// One agent child process and the ACP connection to it.
//
// The daemon reads the child's stdout itself before the SDK does (the "tap"): each NDJSON
// line is classified synchronously, in receive order. `session/update` notifications and
// garbage never reach the SDK (it would drop invalid updates silently and run handlers
// concurrently); they go straight to `events`, which the session host records in order.
// Every other valid JSON-RPC line (responses, permission requests) is handed on to the
// SDK. Outgoing requests are tapped too, so the response to `session/prompt` is reported
// at its exact position in the byte stream: a completion can never overtake the updates
// the agent sent before it.
//
// The agent is finished when its process exits, plus a short drain of what it already
// wrote — not when stdout closes, which a grandchild that inherited it may never do. It
// leads its own process group, and ending it ends the group (see process-group.ts).
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import type {
  InitializeResponse,
  McpServer,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from "@agentclientprotocol/sdk/unstable";
import { agentEnvironment } from "./agent-env";
import { agentRequests } from "./agent-requests";
import { createAgentTap } from "./agent-tap";
import { createIngestPacer } from "./ingest-pacer";
import { createLineSplitter } from "./ndjson-lines";
import { GROUP_TOKEN_ENV } from "./process-group";
import { endTree, killTreeNow, type ProcessTree, stdioIdentities } from "./process-tree";
import { connectSdk } from "./sdk-bridge";

/** How long output is still read after the agent process exited (children may hold the pipe). */
const EXIT_DRAIN_MS = 300;

export type AgentCommand = { command: string; args: readonly string[] };

export type PromptOutcome =
  | { ok: true; result: Record<string, unknown> }
  | { ok: false; error: string };

export type AgentEvents = {
  /**
   * `params.update` of a `session/update` notification, unvalidated, in receive order,
   * with the line it came in (the `raw` of an invalid frame).
   */
  /**
   * A `session/update`. `replayed` marks one the agent sent while answering
   * `session/load`: only the updates in REPLAY_RECORDED_UPDATES are reported then.
   */
  update(update: unknown, line: string, replayed?: boolean): void;
  /** A stdout line that is not a JSON-RPC message at all. */
  invalidFrame(raw: string, error: string): void;
  /** The answer to `session/prompt`, at its position among the received lines. */
  promptAnswered(outcome: PromptOutcome): void;
  permission(
    request: RequestPermissionRequest,
  ): RequestPermissionResponse | Promise<RequestPermissionResponse>;
  /** A notification outside `session/update` whose method starts with `_` (extensions). */
  extension(method: string, params: unknown): void;
  /** The process ended (or never started: `code` null and `error` set). */
  exited(exit: { code: number | null; signal: string | null; error?: string }): void;
  stderr(line: string): void;
  /** Runs a slice of the agent's lines as one unit (one ledger transaction, ADR 0043). */
  batch?(slice: () => void): void;
};

export type AgentProcess = {
  /** Also the process group id: the agent leads its own group. */
  readonly pid: number | undefined;
  /** Marks every process of this agent's tree (in its environment) for the start-up reaper. */
  readonly groupToken: string;
  /** Each handshake step fails with `HandshakeTimeoutError` when not answered in time. */
  initialize(version: string, timeoutMs: number): Promise<InitializeResponse>;
  /** The whole `session/new` answer (its `modes` and `configOptions` too). */
  newSession(
    cwd: string,
    timeoutMs: number,
    mcpServers?: readonly McpServer[],
  ): Promise<SessionSetup & { sessionId: string }>;
  /** `session/load`; the updates the agent replays before answering are not reported. */
  loadSession(
    acpSessionId: string,
    cwd: string,
    timeoutMs: number,
    mcpServers?: readonly McpServer[],
  ): Promise<SessionSetup>;
  setMode(acpSessionId: string, modeId: string): Promise<void>;
  /** Answers the agent's new full set of config options. */
  setConfigOption(
    acpSessionId: string,
    configId: string,
    value: string | boolean,
  ): Promise<unknown>;
  /** Sends `session/prompt`; its answer arrives through `events.promptAnswered`. */
  prompt(acpSessionId: string, text: string): void;
  cancel(acpSessionId: string): Promise<void>;
  /** SIGTERM to the whole group, then SIGKILL after `graceMs` to whatever is left. */
  kill(graceMs?: number): void;
  /** SIGKILL to the whole group, synchronously (daemon exit). */
  killNow(): void;
  /** The agent process exited and its output was drained: `events.exited` has run. */
  readonly exited: Promise<void>;
  /**
   * After `exited`, the rest of the group (orphaned children) is ended too; true once no
   * process of the tree is left, false if one survived SIGKILL.
   */
  readonly treeEnded: Promise<boolean>;
};

/** What `session/new` and `session/load` answer besides the id. */
type SessionSetup = { modes?: unknown; configOptions?: unknown };

export function spawnAgent(
  agent: AgentCommand,
  options: { cwd: string; env?: NodeJS.ProcessEnv; killGraceMs?: number; drainMs?: number },
  events: AgentEvents,
): AgentProcess {
  const groupToken = randomUUID();
  const child: ChildProcess = spawn(agent.command, [...agent.args], {
    cwd: options.cwd,
    // Never the daemon's secrets (agent-env.ts); the group marker is added after filtering.
    env: { ...agentEnvironment(options.env ?? process.env), [GROUP_TOKEN_ENV]: groupToken },
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  const killGraceMs = options.killGraceMs ?? 2000;

  const stdin = child.stdin;
  if (stdin === null || child.stdout === null || child.stderr === null) {
    throw new Error("agent process has no stdio pipes");
  }
  let ended = false;
  const sdk = connectSdk(stdin, {
    noteOutgoing: (line) => tap.noteOutgoing(line),
    permission: (request) => events.permission(request),
  });
  const tap = createAgentTap({ events, toSdk: sdk.toSdk, refuseRequest: sdk.refuseRequest });

  // Lines are handled in paced slices (ADR 0043), in order; a long queue pauses stdout.
  const pacer = createIngestPacer({
    pause: () => child.stdout?.pause(),
    resume: () => child.stdout?.resume(),
    ...(events.batch === undefined ? {} : { around: events.batch }),
  });
  const splitter = createLineSplitter({
    line: (line) => pacer.push(() => tap.onLine(line)),
    oversized: (prefix, bytes) =>
      pacer.push(() =>
        events.invalidFrame(prefix, `line longer than the limit (${bytes} bytes so far)`),
      ),
  });

  const stdout = child.stdout;
  const stderr = child.stderr;
  stdout.on("data", (chunk: Buffer) => {
    if (!exit.finishing()) splitter.push(chunk);
  });
  stdout.on("end", () => splitter.end());
  const stderrSplitter = createLineSplitter({
    line: (text) => events.stderr(text),
    oversized: (prefix) => events.stderr(`${prefix}…`),
  });
  stderr.on("data", (chunk: Buffer) => {
    if (!ended) stderrSplitter.push(chunk);
  });

  let resolveExited: () => void = () => {};
  const exited = new Promise<void>((resolve) => {
    resolveExited = resolve;
  });
  const exit = followExit(child, {
    drainMs: options.drainMs ?? EXIT_DRAIN_MS,
    stopReading: () => splitter.end(),
    whenIdle: (then) => pacer.whenIdle(then),
    complete(how) {
      tap.settleEarly();
      ended = true;
      // A grandchild may still hold the pipes: stop reading them so they cannot keep the
      // daemon's event loop (or this session) alive.
      stdout.destroy();
      stderr.destroy();
      child.stdin?.destroy();
      sdk.close();
      events.exited(how);
      resolveExited();
    },
  });

  const group = groupOf(child.pid, groupToken, killGraceMs, exited);

  return {
    pid: child.pid,
    groupToken,
    exited,
    ...agentRequests(sdk.agent, tap),
    ...group,
  };
}

/** Ending the agent's process tree (it leads its own group, see process-tree.ts). */
function groupOf(
  pgid: number | undefined,
  groupToken: string,
  killGraceMs: number,
  exited: Promise<void>,
) {
  // The group, and whoever keeps the agent's pipes (a `detached: true` grandchild).
  const tree: ProcessTree | undefined =
    pgid === undefined
      ? undefined
      : { pgid, stdio: stdioIdentities(pgid), marker: `${GROUP_TOKEN_ENV}=${groupToken}` };
  let ending: Promise<boolean> | undefined;
  function endAgentTree(graceMs: number): Promise<boolean> {
    if (tree === undefined) return Promise.resolve(true);
    ending ??= endTree(tree, graceMs);
    return ending;
  }
  return {
    // Orphans of an agent that exited by itself are ended too: nothing of a finished agent
    // keeps running behind the session's back.
    treeEnded: exited.then(() => endAgentTree(killGraceMs)),
    kill(graceMs = killGraceMs) {
      void endAgentTree(graceMs);
    },
    killNow() {
      if (tree !== undefined) killTreeNow(tree);
    },
  };
}

type Exit = { code: number | null; signal: string | null; error?: string };

/**
 * When the agent is finished: no more output is read, and what is queued is still
 * handled, in order, before `complete`. `close` fires once stdout is drained, so every
 * line is tapped first; it never fires while a grandchild holds the pipe, so an exit
 * also finishes after a bounded drain, which starts once what was read is handled (a
 * paused stdout is not drained).
 */
function followExit(
  child: ChildProcess,
  steps: {
    drainMs: number;
    stopReading(): void;
    whenIdle(then: () => void): void;
    complete(exit: Exit): void;
  },
) {
  let drainTimer: NodeJS.Timeout | undefined;
  let finishing = false;
  function finish(exit: Exit) {
    if (finishing) return;
    finishing = true;
    clearTimeout(drainTimer);
    steps.stopReading();
    steps.whenIdle(() => steps.complete(exit));
  }
  child.on("close", (code, signal) => finish({ code, signal }));
  child.on("exit", (code, signal) => {
    steps.whenIdle(() => {
      if (finishing) return;
      drainTimer = setTimeout(() => finish({ code, signal }), steps.drainMs);
    });
  });
  child.on("error", (error) => {
    if (child.pid === undefined) {
      finish({ code: null, signal: null, error: `could not start the agent: ${error.message}` });
    }
  });
  return { finishing: () => finishing };
}
