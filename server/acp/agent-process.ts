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
import { Writable } from "node:stream";
import {
  type ClientConnection,
  client,
  type InitializeResponse,
  type McpServer,
  methods,
  ndJsonStream,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
} from "@agentclientprotocol/sdk/unstable";
import { agentEnvironment } from "./agent-env";
import { createIngestPacer } from "./ingest-pacer";
import { createLineSplitter } from "./ndjson-lines";
import { GROUP_TOKEN_ENV } from "./process-group";
import { endTree, killTreeNow, type ProcessTree, stdioIdentities } from "./process-tree";

/** How long output is still read after the agent process exited (children may hold the pipe). */
export const EXIT_DRAIN_MS = 300;

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
export type SessionSetup = { modes?: unknown; configOptions?: unknown };

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function requestIdKey(id: unknown): string | undefined {
  return typeof id === "string" || typeof id === "number" ? `${typeof id}:${id}` : undefined;
}

export class HandshakeTimeoutError extends Error {
  override name = "HandshakeTimeoutError";
}

function describeDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * A handshake step the agent never answers would leave the session `starting` forever;
 * it fails instead, and the host stops the agent with this reason.
 */
async function answeredWithin<T>(method: string, timeoutMs: number, request: Promise<T>) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new HandshakeTimeoutError(
            `agent did not answer ${method} within ${describeDuration(timeoutMs)}`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([request, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The updates of a `session/load` replay that are recorded (see `onLine`). */
export const REPLAY_RECORDED_UPDATES: ReadonlySet<string> = new Set([
  "compaction_update",
  "compaction_summary_chunk",
  "available_commands_update",
]);

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

  // Methods of requests we sent, by JSON-RPC id, to recognise their answers in the tap.
  const sentMethods = new Map<string, string>();
  let replaying = false;
  // The ACP session this agent owns: from the session/new answer (at its line) or the
  // session/load request. A frame naming another session is applied to nothing.
  let ownedSession: string | undefined;
  /** The session id a pending `session/load` asked for. */
  let loading: string | undefined;
  // Updates that arrive while session/new is unanswered: an agent may announce its new
  // session (commands, usage) before the answer line that names it. They are decided, in
  // order, at that line.
  let early: { line: string; update: unknown; sessionId: string }[] = [];
  const EARLY_LIMIT = 1000;
  let sdkInput: ReadableStreamDefaultController<Uint8Array> | undefined;
  const encoder = new TextEncoder();
  let ended = false;

  function toSdk(line: string) {
    if (ended || sdkInput === undefined) return;
    try {
      sdkInput.enqueue(encoder.encode(`${line}\n`));
    } catch {
      // The SDK side is already closed; nothing left to deliver to.
    }
  }

  function onLine(line: string) {
    if (line.trim() === "") return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      events.invalidFrame(line, `not JSON: ${error instanceof Error ? error.message : error}`);
      return;
    }
    if (!isObject(message) || message.jsonrpc !== "2.0") {
      events.invalidFrame(line, "not a JSON-RPC 2.0 message");
      return;
    }
    if (typeof message.method === "string") {
      if (message.method === methods.client.session.update && message.id === undefined) {
        if (replaying) {
          // A replay repeats what the ledger already holds (message chunks, tools, a bad
          // frame included), except what follows patch semantics: a compaction replayed
          // with a new summary, or first seen in the replay, and the command list. The
          // recorder's compaction rules then record only what changed (ACP RFD, "History
          // replay").
          const update = isObject(message.params) ? message.params.update : undefined;
          if (isObject(update) && REPLAY_RECORDED_UPDATES.has(String(update.sessionUpdate))) {
            events.update(update, line, true);
          }
          return;
        }
        if (!isObject(message.params) || !("update" in message.params)) {
          events.invalidFrame(line, "session/update without params.update");
          return;
        }
        const target = message.params.sessionId;
        if (
          ownedSession === undefined &&
          typeof target === "string" &&
          early.length < EARLY_LIMIT &&
          [...sentMethods.values()].includes(methods.agent.session.new)
        ) {
          early.push({ line, update: message.params.update, sessionId: target });
          return;
        }
        const foreign = foreignSession(target);
        if (foreign !== undefined) {
          events.invalidFrame(line, foreign);
          return;
        }
        events.update(message.params.update, line);
        return;
      }
      const target = isObject(message.params) ? message.params.sessionId : undefined;
      const foreign = target === undefined ? undefined : foreignSession(target);
      if (foreign !== undefined) {
        events.invalidFrame(line, foreign);
        if (message.id !== undefined) refuseRequest(message.id, foreign);
        return;
      }
      if (message.id === undefined && message.method.startsWith("_")) {
        // The SDK would drop it; the ledger keeps it, quietly.
        events.extension(message.method, message.params);
        return;
      }
      toSdk(line);
      return;
    }
    const key = requestIdKey(message.id);
    if (key === undefined || (!("result" in message) && !("error" in message))) {
      events.invalidFrame(line, "JSON-RPC message is neither a request nor a response");
      return;
    }
    const method = sentMethods.get(key);
    if (method === undefined) {
      // The SDK would only log and drop it; the ledger keeps what the agent said.
      events.invalidFrame(line, "JSON-RPC response to no request the daemon sent");
      return;
    }
    sentMethods.delete(key);
    if (method === methods.agent.session.load) {
      replaying = false;
      if (!("error" in message) && loading !== undefined) ownedSession = loading;
      settleEarly();
    }
    if (method === methods.agent.session.new) {
      const sessionId = isObject(message.result) ? message.result.sessionId : undefined;
      if (typeof sessionId === "string") ownedSession = sessionId;
      settleEarly();
    }
    if (method === methods.agent.session.prompt) {
      events.promptAnswered(
        "error" in message
          ? { ok: false, error: describeRpcError(message.error) }
          : { ok: true, result: isObject(message.result) ? message.result : {} },
      );
    }
    toSdk(line);
  }

  function settleEarly() {
    const waiting = early;
    early = [];
    for (const frame of waiting) {
      const foreign = foreignSession(frame.sessionId);
      if (foreign === undefined) events.update(frame.update, frame.line);
      else events.invalidFrame(frame.line, foreign);
    }
  }

  /** Why a frame naming `sessionId` is not this agent's, or undefined when it is. */
  function foreignSession(sessionId: unknown): string | undefined {
    if (typeof sessionId !== "string") return "frame without a string params.sessionId";
    if (ownedSession === undefined) {
      return `frame for session ${JSON.stringify(sessionId)} before the agent's session was established`;
    }
    if (sessionId !== ownedSession) {
      return `frame for session ${JSON.stringify(sessionId)}, not this agent's session ${JSON.stringify(ownedSession)}`;
    }
    return undefined;
  }

  /** Answers a request the SDK must not see, so the agent is not left waiting. */
  function refuseRequest(id: unknown, reason: string) {
    if (ended) return;
    const error = { code: -32602, message: `invalid params: ${reason}` };
    stdinWeb
      .write(encoder.encode(`${JSON.stringify({ jsonrpc: "2.0", id, error })}\n`))
      .catch(() => {
        // The agent is gone; the exit handler reports it.
      });
  }

  // Lines are handled in paced slices (ADR 0043), in order; a long queue pauses stdout.
  const pacer = createIngestPacer({
    pause: () => child.stdout?.pause(),
    resume: () => child.stdout?.resume(),
    ...(events.batch === undefined ? {} : { around: events.batch }),
  });
  const splitter = createLineSplitter({
    line: (line) => pacer.push(() => onLine(line)),
    oversized: (prefix, bytes) =>
      pacer.push(() =>
        events.invalidFrame(prefix, `line longer than the limit (${bytes} bytes so far)`),
      ),
  });

  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      sdkInput = controller;
    },
  });
  const stdin = child.stdin;
  if (stdin === null || child.stdout === null || child.stderr === null) {
    throw new Error("agent process has no stdio pipes");
  }
  stdin.on("error", () => {
    // EPIPE after the agent died: the exit handler reports it.
  });
  const stdinWeb = Writable.toWeb(stdin).getWriter();
  const outputDecoder = new TextDecoder();
  let outputPending = "";
  const output = new WritableStream<Uint8Array>({
    async write(chunk) {
      outputPending += outputDecoder.decode(chunk, { stream: true });
      let newline = outputPending.indexOf("\n");
      while (newline !== -1) {
        noteOutgoing(outputPending.slice(0, newline));
        outputPending = outputPending.slice(newline + 1);
        newline = outputPending.indexOf("\n");
      }
      await stdinWeb.write(chunk);
    },
  });

  function noteOutgoing(line: string) {
    try {
      const message: unknown = JSON.parse(line);
      if (isObject(message) && typeof message.method === "string") {
        const key = requestIdKey(message.id);
        if (key !== undefined) sentMethods.set(key, message.method);
      }
    } catch {
      // Our own SDK wrote it; a parse failure here can only be a partial line.
    }
  }

  const connection: ClientConnection = client({ name: "tideline" })
    .onNotification(methods.client.session.update, () => {
      // Never reached: the tap keeps session/update from the SDK.
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => events.permission(params))
    .connect(ndJsonStream(output, input));
  connection.closed.catch(() => {});

  const stdout = child.stdout;
  const stderr = child.stderr;
  stdout.on("data", (chunk: Buffer) => {
    if (!finishing) splitter.push(chunk);
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
  let drainTimer: NodeJS.Timeout | undefined;
  let finishing = false;
  type Exit = { code: number | null; signal: string | null; error?: string };
  /** No more output is read; what is queued is still handled, in order, before the end. */
  function finish(exit: Exit) {
    if (finishing) return;
    finishing = true;
    clearTimeout(drainTimer);
    splitter.end();
    pacer.whenIdle(() => complete(exit));
  }
  function complete(exit: Exit) {
    settleEarly();
    ended = true;
    // A grandchild may still hold the pipes: stop reading them so they cannot keep the
    // daemon's event loop (or this session) alive.
    stdout.destroy();
    stderr.destroy();
    child.stdin?.destroy();
    try {
      sdkInput?.close();
    } catch {
      // Already closed.
    }
    connection.close(new Error("agent process ended"));
    events.exited(exit);
    resolveExited();
  }
  // `close` fires once stdout is drained, so every line is tapped first. It never fires
  // while a grandchild holds the pipe, so an exit also finishes after a bounded drain.
  child.on("close", (code, signal) => finish({ code, signal }));
  // The drain window starts once what was read is handled (a paused stdout is not drained).
  child.on("exit", (code, signal) => {
    pacer.whenIdle(() => {
      if (finishing) return;
      drainTimer = setTimeout(() => finish({ code, signal }), options.drainMs ?? EXIT_DRAIN_MS);
    });
  });
  child.on("error", (error) => {
    if (child.pid === undefined) {
      finish({ code: null, signal: null, error: `could not start the agent: ${error.message}` });
    }
  });

  const agentCtx = connection.agent;
  const pgid = child.pid;
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
  // Orphans of an agent that exited by itself are ended too: nothing of a finished agent
  // keeps running behind the session's back.
  const treeEnded = exited.then(() => endAgentTree(killGraceMs));

  return {
    pid: child.pid,
    groupToken,
    exited,
    treeEnded,
    initialize(version, timeoutMs) {
      return answeredWithin(
        "initialize",
        timeoutMs,
        agentCtx.request(methods.agent.initialize, {
          protocolVersion: 1,
          clientInfo: { name: "tideline", version },
          clientCapabilities: {
            fs: { readTextFile: false, writeTextFile: false },
            terminal: false,
            session: { compaction: {}, notices: {} },
          },
        }),
      );
    },
    async newSession(cwd, timeoutMs, mcpServers = []) {
      const response = await answeredWithin(
        "session/new",
        timeoutMs,
        agentCtx.request(methods.agent.session.new, { cwd, mcpServers: [...mcpServers] }),
      );
      return response;
    },
    async loadSession(acpSessionId, cwd, timeoutMs, mcpServers = []) {
      // The tap clears `replaying` at the answer's line. An agent that never answers stays
      // muted until it is stopped, so a late replay is never recorded as new.
      replaying = true;
      // The loaded session is this agent's session from its answer on (as session/new's
      // answer makes it): frames of the turns after the load must not read as foreign.
      loading = acpSessionId;
      return await answeredWithin(
        "session/load",
        timeoutMs,
        agentCtx.request(methods.agent.session.load, {
          sessionId: acpSessionId,
          cwd,
          mcpServers: [...mcpServers],
        }),
      );
    },
    prompt(acpSessionId, text) {
      agentCtx
        .request(methods.agent.session.prompt, {
          sessionId: acpSessionId,
          prompt: [{ type: "text", text }],
        })
        .catch(() => {
          // The tap reports the answer (or the exit handler ends the turn).
        });
    },
    async setMode(acpSessionId, modeId) {
      await agentCtx.request(methods.agent.session.setMode, { sessionId: acpSessionId, modeId });
    },
    async setConfigOption(acpSessionId, configId, value) {
      const response = await agentCtx.request(
        methods.agent.session.setConfigOption,
        typeof value === "boolean"
          ? { sessionId: acpSessionId, configId, type: "boolean", value }
          : { sessionId: acpSessionId, configId, value },
      );
      return (response as { configOptions?: unknown } | undefined)?.configOptions;
    },
    async cancel(acpSessionId) {
      await agentCtx.notify(methods.agent.session.cancel, { sessionId: acpSessionId });
    },
    kill(graceMs = killGraceMs) {
      void endAgentTree(graceMs);
    },
    killNow() {
      if (tree !== undefined) killTreeNow(tree);
    },
  };
}

function describeRpcError(error: unknown): string {
  if (isObject(error)) {
    const code = typeof error.code === "number" ? ` (${error.code})` : "";
    return `${typeof error.message === "string" ? error.message : "agent error"}${code}`;
  }
  return "agent error";
}
