// Test-only ACP client: spawns the real demo agent over stdio and records every frame twice,
// as raw NDJSON lines (what is on the wire, including frames the SDK would drop) and as the
// `session/update` notifications the SDK client hands to its handler after validation.
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PassThrough, Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import {
  type ClientCapabilities,
  type ClientConnection,
  client,
  type InitializeResponse,
  methods,
  ndJsonStream,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import type { PromptResponse } from "@agentclientprotocol/sdk/unstable";
import { afterAll, beforeAll } from "vitest";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = join(HERE, "..", "..");

/** How the client advertises `clientCapabilities.session.compaction`. */
export type CapabilityMode = "advertised" | "omitted" | "null";

export type JsonObject = { [key: string]: unknown };

export type RawFrame = { line: string; json: JsonObject | null };

export type StartOptions = {
  capability?: CapabilityMode;
  /** Extra CLI flags; `--speed 0` and a fresh `--state-dir` come first unless overridden. */
  args?: string[];
  stateDir?: string;
  env?: Record<string, string>;
  /** How the client answers `session/request_permission` (default: the first option). */
  answerPermission?: (request: RequestPermissionRequest) => RequestPermissionResponse;
};

export type DemoAgentClient = {
  stateDir: string;
  /** Every stdout line, in order. */
  raw: RawFrame[];
  /** What the SDK client delivered to its `session/update` handler. */
  sdkUpdates: SessionNotification[];
  /** Every `session/request_permission` the agent sent, in order. */
  permissionRequests: RequestPermissionRequest[];
  stderr(): string;
  initializeResponse: InitializeResponse;
  connection: ClientConnection;
  newSession(): Promise<string>;
  loadSession(sessionId: string): Promise<void>;
  /** Sends a prompt and resolves once its response is also in the raw log. */
  prompt(sessionId: string, text: string): Promise<PromptResponse>;
  /** One whole turn: its response and every raw frame written during it. */
  turn(sessionId: string, text: string): Promise<{ response: PromptResponse; frames: RawFrame[] }>;
  cancel(sessionId: string): Promise<void>;
  /** Resolves with the first raw frame after `from` that matches. */
  waitForRaw(
    match: (frame: RawFrame) => boolean,
    from?: number,
    timeoutMs?: number,
  ): Promise<RawFrame>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  close(): Promise<void>;
};

function capabilities(mode: CapabilityMode): ClientCapabilities {
  const fs = { readTextFile: false, writeTextFile: false };
  if (mode === "advertised") return { fs, terminal: false, session: { compaction: {} } };
  if (mode === "null") return { fs, terminal: false, session: { compaction: null } };
  return { fs, terminal: false };
}

function parseLine(line: string): RawFrame {
  try {
    const json: unknown = JSON.parse(line);
    return {
      line,
      json:
        typeof json === "object" && json !== null && !Array.isArray(json)
          ? (json as JsonObject)
          : null,
    };
  } catch {
    return { line, json: null };
  }
}

export function newStateDir(): string {
  return mkdtempSync(join(tmpdir(), "demo-agent-test-"));
}

export async function startDemoAgent(options: StartOptions = {}): Promise<DemoAgentClient> {
  const ownsStateDir = options.stateDir === undefined;
  const stateDir = options.stateDir ?? newStateDir();
  const child: ChildProcessByStdio<Writable, Readable, Readable> = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      join(HERE, "../demo-agent/main.ts"),
      "--speed",
      "0",
      "--state-dir",
      stateDir,
      ...(options.args ?? []),
    ],
    { cwd: REPO_ROOT, stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...options.env } },
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (text: string) => {
    stderr += text;
  });

  const raw: RawFrame[] = [];
  const listeners = new Set<() => void>();
  const rawTap = new PassThrough();
  const sdkTap = new PassThrough();
  child.stdout.pipe(rawTap);
  child.stdout.pipe(sdkTap);
  let partial = "";
  rawTap.setEncoding("utf8");
  rawTap.on("data", (text: string) => {
    partial += text;
    for (let end = partial.indexOf("\n"); end !== -1; end = partial.indexOf("\n")) {
      const line = partial.slice(0, end);
      partial = partial.slice(end + 1);
      if (line.trim() !== "") raw.push(parseLine(line));
    }
    for (const listener of listeners) listener();
  });

  const waitForRaw: DemoAgentClient["waitForRaw"] = (match, from = 0, timeoutMs = 10_000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = raw.slice(from).find(match);
        if (!found) return false;
        listeners.delete(listener);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const listener = () => void check();
      const timer = setTimeout(() => {
        listeners.delete(listener);
        reject(new Error(`no matching frame within ${timeoutMs} ms; stderr:\n${stderr}`));
      }, timeoutMs);
      listeners.add(listener);
      check();
    });

  const sdkUpdates: SessionNotification[] = [];
  const permissionRequests: RequestPermissionRequest[] = [];
  const answer =
    options.answerPermission ??
    ((request: RequestPermissionRequest): RequestPermissionResponse => ({
      outcome: { outcome: "selected", optionId: request.options[0]?.optionId ?? "" },
    }));
  const connection = client({ name: "demo-agent-test-client" })
    .onNotification(methods.client.session.update, ({ params }) => {
      sdkUpdates.push(params);
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      permissionRequests.push(params);
      return answer(params);
    })
    .connect(
      ndJsonStream(
        Writable.toWeb(child.stdin),
        Readable.toWeb(sdkTap) as ReadableStream<Uint8Array>,
      ),
    );

  const initializeResponse = await connection.agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientInfo: { name: "demo-agent-test-client", version: "0.0.0" },
    clientCapabilities: capabilities(options.capability ?? "advertised"),
  });

  const isPromptResponse = (frame: RawFrame) =>
    typeof frame.json?.id === "number" &&
    typeof (frame.json.result as { stopReason?: unknown } | undefined)?.stopReason === "string";

  // The agent announces its commands right after answering session/new or session/load;
  // waiting for that keeps the announcement out of the next turn's frames.
  const isCommandsUpdate = (sessionId: string) => (frame: RawFrame) =>
    updateOf(frame)?.sessionUpdate === "available_commands_update" &&
    (frame.json?.params as { sessionId?: unknown } | undefined)?.sessionId === sessionId;

  const prompt = async (sessionId: string, text: string): Promise<PromptResponse> => {
    const from = raw.length;
    const response: PromptResponse = await connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text }],
    });
    await waitForRaw(isPromptResponse, from);
    return response;
  };

  return {
    stateDir,
    raw,
    sdkUpdates,
    permissionRequests,
    stderr: () => stderr,
    initializeResponse,
    connection,
    async newSession() {
      const from = raw.length;
      const response = await connection.agent.request(methods.agent.session.new, {
        cwd: REPO_ROOT,
        mcpServers: [],
      });
      await waitForRaw(isCommandsUpdate(response.sessionId), from);
      return response.sessionId;
    },
    async loadSession(sessionId) {
      const from = raw.length;
      await connection.agent.request(methods.agent.session.load, {
        sessionId,
        cwd: REPO_ROOT,
        mcpServers: [],
      });
      await waitForRaw(isCommandsUpdate(sessionId), from);
    },
    prompt,
    async turn(sessionId, text) {
      const from = raw.length;
      const response = await prompt(sessionId, text);
      return { response, frames: raw.slice(from) };
    },
    cancel: (sessionId) => connection.agent.notify(methods.agent.session.cancel, { sessionId }),
    waitForRaw,
    exited,
    async close() {
      connection.close();
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
      await exited;
      clearTimeout(timer);
      if (ownsStateDir) rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/**
 * One agent shared by a test file: started before its tests, closed after them. The
 * returned client forwards to the running one, so tests can hold it as a plain constant.
 */
export function sharedDemoAgent(options: StartOptions = {}): DemoAgentClient {
  let client: DemoAgentClient | undefined;
  beforeAll(async () => {
    client = await startDemoAgent(options);
  });
  afterAll(async () => {
    await client?.close();
  });
  return new Proxy({} as DemoAgentClient, {
    get(_target, key) {
      if (client === undefined) throw new Error("the shared demo agent starts in beforeAll");
      return Reflect.get(client, key);
    },
  });
}

// ── Reading frames ──────────────────────────────────────────────────────────────────────────

export type SessionUpdateFrame = { sessionUpdate: string; [key: string]: unknown };

/** The `update` of a raw `session/update` notification, or null for anything else. */
export function updateOf(frame: RawFrame): SessionUpdateFrame | null {
  if (frame.json?.method !== "session/update") return null;
  const params = frame.json.params as { update?: unknown } | undefined;
  const update = params?.update as { sessionUpdate?: unknown } | undefined;
  if (typeof update?.sessionUpdate !== "string") return null;
  return update as SessionUpdateFrame;
}

/** The `session/update` payloads of one kind among some frames. */
export function updatesOf(frames: readonly RawFrame[], kind: string): SessionUpdateFrame[] {
  return frames
    .map(updateOf)
    .filter((update) => update?.sessionUpdate === kind) as SessionUpdateFrame[];
}

/**
 * A short name per frame: `compaction_update:in_progress`, `tool_call:completed`,
 * `usage_update`, `response:end_turn`, `unparsable`…
 */
export function describeFrame(frame: RawFrame): string {
  const json = frame.json;
  if (!json) return "unparsable";
  if ("result" in json) {
    const stopReason = (json.result as { stopReason?: unknown } | null)?.stopReason;
    return typeof stopReason === "string" ? `response:${stopReason}` : "response";
  }
  if ("error" in json) return `error:${String((json.error as { code?: unknown }).code)}`;
  const update = updateOf(frame);
  if (!update) return String(json.method);
  switch (update.sessionUpdate) {
    case "compaction_update":
      return `compaction_update:${typeof update.status === "string" ? update.status : "<no status>"}`;
    case "tool_call":
    case "tool_call_update":
      return `${update.sessionUpdate}:${String(update.status ?? "")}`;
    default:
      return update.sessionUpdate;
  }
}

/** Describes frames and folds each run of a repeated chunk into one `name+` entry. */
export function frameSequence(frames: readonly RawFrame[]): string[] {
  const names = frames.map(describeFrame);
  const sequence: string[] = [];
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index] ?? "";
    if (name.endsWith("_chunk") && names[index + 1] === name) {
      while (names[index + 1] === name) index += 1;
      sequence.push(`${name}+`);
    } else {
      sequence.push(name);
    }
  }
  return sequence;
}

/** The text of a content block or a list of them (`summary`, `content`); "" for anything else. */
export function textOf(value: unknown): string {
  const blocks = Array.isArray(value) ? value : [value];
  return blocks
    .map((block: unknown) => {
      const text = (block as { text?: unknown } | null)?.text;
      return typeof text === "string" ? text : "";
    })
    .join("");
}
