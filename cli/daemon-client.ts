// The CLI's only HTTP code: base URL, bearer token, the `tideline-cli/<version>` user
// agent (which makes the daemon record `requested_by: "cli"`), error bodies turned into
// typed errors, every answer parsed, and a session id turned into its workspace's paths.
import type { z } from "zod";
import { CLI_VERSION } from "./version";
import { ErrorBody, type Session, SessionEnvelope, SessionPage } from "./wire";

export const DEFAULT_API = "http://127.0.0.1:4820";
export const USER_AGENT = `tideline-cli/${CLI_VERSION}`;
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

export function createDaemonClient(options: ClientOptions) {
  const base = options.api.replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;
  const sessions = new Map<string, Session>();

  function headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      "User-Agent": USER_AGENT,
      Accept: "application/json",
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
      ...extra,
    };
  }

  async function send(
    method: string,
    path: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<Response> {
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    try {
      return await doFetch(`${base}${path}`, {
        method,
        headers: headers(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new DaemonUnreachable(`cannot reach the daemon at ${base} (${causeOf(error)})`);
    }
  }

  async function request<T extends z.ZodType>(
    schema: T,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<z.infer<T>> {
    const response = await send(method, path, body);
    const text = await response.text();
    let json: unknown;
    try {
      json = text === "" ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const error = ErrorBody.safeParse(json);
      if (error.success) throw new DaemonError(response.status, error.data.code, error.data.error);
      throw new DaemonError(
        response.status,
        undefined,
        `${method} ${path} answered HTTP ${response.status}`,
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where =
        issue === undefined ? "" : ` (${issue.path.join(".") || "body"}: ${issue.message})`;
      throw new UnexpectedAnswer(`unexpected answer to ${method} ${path}${where}`);
    }
    return parsed.data;
  }

  const get = <T extends z.ZodType>(schema: T, path: string) => request(schema, "GET", path);

  /** Every session, page by page (the daemon caps a page at 100). */
  async function listSessions(query: { workspace?: string; state?: string } = {}) {
    const all: Session[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page += 1) {
      const params = new URLSearchParams({ limit: "100" });
      if (query.workspace) params.set("workspace", query.workspace);
      if (query.state) params.set("state", query.state);
      if (cursor) params.set("cursor", cursor);
      const answer = await get(SessionPage, `/api/sessions?${params}`);
      all.push(...answer.sessions);
      cursor = answer.page?.next_cursor ?? undefined;
      if (!answer.page?.has_more || !cursor) break;
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
    return `/api/workspaces/${encodeURIComponent(session.workspace_id)}/sessions/${encodeURIComponent(id)}${suffix}`;
  }

  /**
   * A GET whose body may take longer than one request's timeout to arrive (an export): the
   * timeout covers the answer's start; the body then streams for as long as it takes.
   */
  async function stream(path: string): Promise<ReadableStream<Uint8Array>> {
    const started = new AbortController();
    const timer = setTimeout(
      () => started.abort(new Error("no answer in time")),
      REQUEST_TIMEOUT_MS,
    );
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method: "GET",
        headers: headers({ Accept: "*/*" }),
        signal: started.signal,
      });
    } catch (error) {
      throw new DaemonUnreachable(`cannot reach the daemon at ${base} (${causeOf(error)})`);
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok || response.body === null) {
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      const error = ErrorBody.safeParse(json);
      if (error.success) throw new DaemonError(response.status, error.data.code, error.data.error);
      throw new DaemonError(
        response.status,
        undefined,
        `GET ${path} answered HTTP ${response.status}`,
      );
    }
    return response.body;
  }

  return { base, request, get, send, stream, headers, listSessions, findSession, sessionPath };
}
