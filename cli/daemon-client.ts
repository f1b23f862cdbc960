// The CLI's only HTTP code: base URL, bearer token, the `tideline-cli/<version>` user
// agent (which makes the daemon record `requested_by: "cli"`), error bodies turned into
// typed errors, every answer parsed with the wire contract (src/contract/), and a session
// id turned into its workspace's paths.

import { ErrorEnvelope } from "../src/contract/error";
import { type Session, SessionEnvelope, SessionList } from "../src/contract/session";
import type { z } from "../src/contract/zod";
import { withUnreadFields } from "./unread-fields";
import { CLI_VERSION } from "./version";

export const DEFAULT_API = "http://127.0.0.1:4820";
const USER_AGENT = `tideline-cli/${CLI_VERSION}`;
const REQUEST_TIMEOUT_MS = 30_000;

/** The daemon answered with an error body (a refusal, not found, a bad request …). */
export class DaemonError extends Error {
  override name = "DaemonError";
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** No answer at all: nothing listening, DNS, a timeout, a reset. */
export class DaemonUnreachable extends Error {
  override name = "DaemonUnreachable";
}

/** An answer the CLI cannot read (not JSON, or not the shape it needs). */
export class UnexpectedAnswer extends Error {
  override name = "UnexpectedAnswer";
}

export type ClientOptions = { api: string; token?: string | undefined; fetch?: typeof fetch };

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === "ECONNREFUSED") return "connection refused";
  if (cause?.code === "ENOTFOUND") return "host not found";
  if (error instanceof Error && error.name === "TimeoutError") return "no answer in time";
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

export type DaemonClient = ReturnType<typeof createDaemonClient>;

type Transport = { base: string; token: string | undefined; fetch: typeof fetch };

function headersFor(transport: Transport, extra: Record<string, string> = {}) {
  return {
    "User-Agent": USER_AGENT,
    Accept: "application/json",
    ...(transport.token ? { Authorization: `Bearer ${transport.token}` } : {}),
    ...extra,
  };
}

function unreachable(transport: Transport, error: unknown): DaemonUnreachable {
  return new DaemonUnreachable(`cannot reach the daemon at ${transport.base} (${causeOf(error)})`);
}

async function send(
  transport: Transport,
  method: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<Response> {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  try {
    return await transport.fetch(`${transport.base}${path}`, {
      method,
      headers: headersFor(
        transport,
        body === undefined ? {} : { "Content-Type": "application/json" },
      ),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw unreachable(transport, error);
  }
}

function jsonOf(text: string): unknown {
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A non-2xx answer in the daemon's words when it sent its error envelope, else in ours. */
function refusal(response: Response, json: unknown, request: string): DaemonError {
  const error = ErrorEnvelope.safeParse(json);
  if (error.success) return new DaemonError(response.status, error.data.code, error.data.error);
  return new DaemonError(response.status, undefined, `${request} answered HTTP ${response.status}`);
}

/**
 * The answer checked against the contract's schema; what the CLI prints (`-o json`) keeps
 * the fields the contract does not read, as the daemon sent them (ADR 0150).
 */
async function readAnswer<T extends z.ZodMiniType>(
  schema: T,
  response: Response,
  request: string,
): Promise<z.output<T>> {
  const json = jsonOf(await response.text());
  if (!response.ok) throw refusal(response, json, request);
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where =
      issue === undefined ? "" : ` (${issue.path.join(".") || "body"}: ${issue.message})`;
    throw new UnexpectedAnswer(`unexpected answer to ${request}${where}`);
  }
  return withUnreadFields(parsed.data, json);
}

/**
 * A GET whose body may take longer than one request's timeout to arrive (an export): the
 * timeout covers the answer's start; the body then streams for as long as it takes.
 */
async function openStream(transport: Transport, path: string): Promise<ReadableStream<Uint8Array>> {
  const started = new AbortController();
  const timer = setTimeout(() => started.abort(new Error("no answer in time")), REQUEST_TIMEOUT_MS);
  let response: Response;
  try {
    response = await transport.fetch(`${transport.base}${path}`, {
      method: "GET",
      headers: headersFor(transport, { Accept: "*/*" }),
      signal: started.signal,
    });
  } catch (error) {
    throw unreachable(transport, error);
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok || response.body === null) {
    throw refusal(response, jsonOf(await response.text()), `GET ${path}`);
  }
  return response.body;
}

type Get = <T extends z.ZodMiniType>(schema: T, path: string) => Promise<z.output<T>>;

/** Sessions by id, each looked up once per run, and the workspace paths under them. */
function sessionDirectory(get: Get) {
  const sessions = new Map<string, Session>();

  /** Every session, page by page (the daemon caps a page at 100). */
  async function listSessions(query: { workspace?: string; state?: string } = {}) {
    const all: Session[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page += 1) {
      const params = new URLSearchParams({ limit: "100" });
      if (query.workspace) params.set("workspace", query.workspace);
      if (query.state) params.set("state", query.state);
      if (cursor) params.set("cursor", cursor);
      const answer = await get(SessionList, `/api/sessions?${params}`);
      all.push(...answer.sessions);
      cursor = answer.page.next_cursor;
      if (!answer.page.has_more || !cursor) break;
    }
    return all;
  }

  /**
   * One session by id alone: `GET /api/sessions/{id}`, which CompozyOS and the reference
   * daemon both answer, so a 404 means there is no such session (never a list scan).
   */
  async function findSession(id: string, options: { fresh?: boolean } = {}): Promise<Session> {
    const known = options.fresh ? undefined : sessions.get(id);
    if (known !== undefined) return known;
    let session: Session;
    try {
      session = (await get(SessionEnvelope, `/api/sessions/${encodeURIComponent(id)}`)).session;
    } catch (error) {
      if (error instanceof DaemonError && error.status === 404) {
        throw new DaemonError(404, "not_found", `session ${id} not found`);
      }
      throw error;
    }
    sessions.set(id, session);
    return session;
  }

  /** `/api/workspaces/{ws}/sessions/{id}` + suffix, for a session known by its id only. */
  async function sessionPath(id: string, suffix = ""): Promise<string> {
    const session = await findSession(id);
    const workspace = session.workspace_id;
    if (workspace === undefined) {
      throw new UnexpectedAnswer(`unexpected answer to GET /api/sessions/${id} (no workspace_id)`);
    }
    return `/api/workspaces/${encodeURIComponent(workspace)}/sessions/${encodeURIComponent(id)}${suffix}`;
  }

  return { listSessions, findSession, sessionPath };
}

export function createDaemonClient(options: ClientOptions) {
  const transport: Transport = {
    base: options.api.replace(/\/+$/, ""),
    token: options.token,
    fetch: options.fetch ?? fetch,
  };
  async function request<T extends z.ZodMiniType>(
    schema: T,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<z.output<T>> {
    return readAnswer(schema, await send(transport, method, path, body), `${method} ${path}`);
  }
  const get: Get = (schema, path) => request(schema, "GET", path);
  return {
    base: transport.base,
    request,
    get,
    send: (method: string, path: string, body?: unknown, signal?: AbortSignal) =>
      send(transport, method, path, body, signal),
    stream: (path: string) => openStream(transport, path),
    headers: (extra?: Record<string, string>) => headersFor(transport, extra),
    ...sessionDirectory(get),
  };
}
