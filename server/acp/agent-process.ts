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
import { type ChildProcess, spawn } from "node:child_process";
import { Writable } from "node:stream";
import {
  type ClientConnection,
  client,
  type InitializeResponse,
  methods,
  ndJsonStream,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
} from "@agentclientprotocol/sdk/unstable";
import { createLineSplitter } from "./ndjson-lines";

export type AgentCommand = { command: string; args: readonly string[] };

export type PromptOutcome =
  | { ok: true; result: Record<string, unknown> }
  | { ok: false; error: string };

export type AgentEvents = {
  /**
   * `params.update` of a `session/update` notification, unvalidated, in receive order,
   * with the line it came in (the `raw` of an invalid frame).
   */
  update(update: unknown, line: string): void;
  /** A stdout line that is not a JSON-RPC message at all. */
  invalidFrame(raw: string, error: string): void;
  /** The answer to `session/prompt`, at its position among the received lines. */
  promptAnswered(outcome: PromptOutcome): void;
  permission(request: RequestPermissionRequest): RequestPermissionResponse;
  /** The process ended (or never started: `code` null and `error` set). */
  exited(exit: { code: number | null; signal: string | null; error?: string }): void;
  stderr(line: string): void;
};

export type AgentProcess = {
  readonly pid: number | undefined;
  /** Each handshake step fails with `HandshakeTimeoutError` when not answered in time. */
  initialize(version: string, timeoutMs: number): Promise<InitializeResponse>;
  newSession(cwd: string, timeoutMs: number): Promise<string>;
  /** `session/load`; the updates the agent replays before answering are not reported. */
  loadSession(acpSessionId: string, cwd: string, timeoutMs: number): Promise<void>;
  /** Sends `session/prompt`; its answer arrives through `events.promptAnswered`. */
  prompt(acpSessionId: string, text: string): void;
  cancel(acpSessionId: string): Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs` if the process is still there. */
  kill(graceMs?: number): void;
  readonly exited: Promise<void>;
};

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

export function spawnAgent(
  agent: AgentCommand,
  options: { cwd: string; env?: NodeJS.ProcessEnv },
  events: AgentEvents,
): AgentProcess {
  const child: ChildProcess = spawn(agent.command, [...agent.args], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", "pipe"],
  });

  // Methods of requests we sent, by JSON-RPC id, to recognise their answers in the tap.
  const sentMethods = new Map<string, string>();
  let replaying = false;
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
        // A replay repeats what the ledger already holds, a bad frame included.
        if (replaying) return;
        if (!isObject(message.params) || !("update" in message.params)) {
          events.invalidFrame(line, "session/update without params.update");
        } else {
          events.update(message.params.update, line);
        }
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
    if (method === methods.agent.session.load) replaying = false;
    if (method === methods.agent.session.prompt) {
      events.promptAnswered(
        "error" in message
          ? { ok: false, error: describeRpcError(message.error) }
          : { ok: true, result: isObject(message.result) ? message.result : {} },
      );
    }
    toSdk(line);
  }

  const splitter = createLineSplitter({
    line: onLine,
    oversized: (prefix, bytes) =>
      events.invalidFrame(prefix, `line longer than the limit (${bytes} bytes so far)`),
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

  child.stdout.on("data", (chunk: Buffer) => splitter.push(chunk));
  child.stdout.on("end", () => splitter.end());
  const stderrSplitter = createLineSplitter({
    line: (text) => events.stderr(text),
    oversized: (prefix) => events.stderr(`${prefix}…`),
  });
  child.stderr.on("data", (chunk: Buffer) => stderrSplitter.push(chunk));

  let resolveExited: () => void = () => {};
  const exited = new Promise<void>((resolve) => {
    resolveExited = resolve;
  });
  function finish(exit: { code: number | null; signal: string | null; error?: string }) {
    if (ended) return;
    splitter.end();
    ended = true;
    try {
      sdkInput?.close();
    } catch {
      // Already closed.
    }
    connection.close(new Error("agent process ended"));
    events.exited(exit);
    resolveExited();
  }
  // `close` (not `exit`) fires after stdout is drained, so every line is tapped first.
  child.on("close", (code, signal) => finish({ code, signal }));
  child.on("error", (error) => {
    if (child.pid === undefined) {
      finish({ code: null, signal: null, error: `could not start the agent: ${error.message}` });
    }
  });

  const agentCtx = connection.agent;

  return {
    pid: child.pid,
    exited,
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
            session: { compaction: {} },
          },
        }),
      );
    },
    async newSession(cwd, timeoutMs) {
      const response = await answeredWithin(
        "session/new",
        timeoutMs,
        agentCtx.request(methods.agent.session.new, { cwd, mcpServers: [] }),
      );
      return response.sessionId;
    },
    async loadSession(acpSessionId, cwd, timeoutMs) {
      // The tap clears `replaying` at the answer's line. An agent that never answers stays
      // muted until it is stopped, so a late replay is never recorded as new.
      replaying = true;
      await answeredWithin(
        "session/load",
        timeoutMs,
        agentCtx.request(methods.agent.session.load, {
          sessionId: acpSessionId,
          cwd,
          mcpServers: [],
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
    async cancel(acpSessionId) {
      await agentCtx.notify(methods.agent.session.cancel, { sessionId: acpSessionId });
    },
    kill(graceMs = 2000) {
      if (ended) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => {
        if (!ended) child.kill("SIGKILL");
      }, graceMs);
      timer.unref();
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
