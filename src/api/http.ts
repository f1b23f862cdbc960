// The only code that talks to the daemon over HTTP. Every response is parsed with the
// contract, so a bad payload surfaces as a typed error instead of a broken render.

import { PROMPT_STREAM_HEADER } from "../contract/commands";
import { ErrorEnvelope } from "../contract/error";
import { READ_CREDENTIALS, sessionApiPath, withQuery } from "../contract/first-paint";
import { z } from "../contract/zod";

/** A non-2xx answer (carrying the envelope), a network failure, or an unparseable body. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly details: Record<string, string> | undefined;

  constructor(
    message: string,
    options: { status: number; code?: string | undefined; details?: Record<string, string> },
  ) {
    super(message);
    this.name = "ApiError";
    this.status = options.status;
    this.code = options.code;
    this.details = options.details;
  }
}

export function isApiError(error: unknown, code?: string): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

const TOKEN_KEY = "tideline.token";
/** Where an older build remembered a `?api=` override for the tab; cleared on sight. */
const LEGACY_API_OVERRIDE_KEY = "tideline.api";

/**
 * The daemon is the page's own origin, always (ADR 0172). There is no run-time override:
 * a crafted `?api=` link once made the page send its bearer token to another origin. Paths
 * stay relative, so the dev server's proxy and upstream mode both keep working.
 */
export function apiBase(): string {
  if (typeof window !== "undefined") window.sessionStorage.removeItem(LEGACY_API_OVERRIDE_KEY);
  return "";
}

/** Whether `url` is on the page's own origin: the only place the token may be sent. */
export function isOwnOrigin(url: string): boolean {
  if (typeof window === "undefined") return false;
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

/** The bearer token, taken once from `#token=` and then kept in session storage. */
export function apiToken(): string | undefined {
  if (typeof window === "undefined") return undefined;
  const hash = new URLSearchParams(window.location.hash.slice(1));
  const fromHash = hash.get("token");
  if (fromHash) {
    window.sessionStorage.setItem(TOKEN_KEY, fromHash);
    hash.delete("token");
    const rest = hash.toString();
    window.history.replaceState(
      window.history.state,
      "",
      `${window.location.pathname}${window.location.search}${rest ? `#${rest}` : ""}`,
    );
    return fromHash;
  }
  return window.sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export function apiUrl(path: string, query?: Record<string, string | number | undefined>): string {
  return `${apiBase()}${withQuery(path, query ?? {})}`;
}

type RequestOptions = {
  signal?: AbortSignal | undefined;
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
};

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/**
 * What a 2xx answer that is a stream, not JSON, stands for. CompozyOS answers a prompt that
 * starts a turn at once with the turn's UI message stream; the SPA follows the turn on the
 * session stream instead, so it reads none of it and closes the body (the turn goes on).
 */
const STREAMED = Symbol("streamed");

function isEventStream(response: Response): boolean {
  return (
    (response.headers.get("Content-Type") ?? "").includes("text/event-stream") ||
    response.headers.has(PROMPT_STREAM_HEADER)
  );
}

async function send<S extends z.ZodMiniType>(
  method: Method,
  path: string,
  schema: S,
  body: unknown,
  options: RequestOptions,
): Promise<z.infer<S> | typeof STREAMED> {
  // No Accept header on reads: Chromium hands a page's preloaded response (ADR 0210) only to
  // a fetch whose headers match the preload's, and a preload cannot set any.
  // POST and PATCH always carry JSON; a PUT or DELETE only when given one (the queue's edit).
  const hasBody = method === "POST" || method === "PATCH" || body !== undefined;
  const headers: Record<string, string> = {
    ...(method === "GET" ? {} : { Accept: "application/json" }),
    ...options.headers,
  };
  const url = apiUrl(path, options.query);
  const token = apiToken();
  if (token && isOwnOrigin(url)) headers.Authorization = `Bearer ${token}`;
  if (hasBody) headers["Content-Type"] = "application/json";

  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      credentials: READ_CREDENTIALS,
      signal: options.signal ?? null,
      ...(hasBody ? { body: JSON.stringify(body ?? {}) } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError("Couldn't reach the daemon.", { status: 0, code: "network" });
  }

  if (response.ok && isEventStream(response)) {
    await response.body?.cancel().catch(() => undefined);
    return STREAMED;
  }
  // 204 (stop, delete) has no body: the schema decides whether "nothing" is an answer.
  const payload: unknown =
    response.status === 204 ? undefined : await response.json().catch(() => undefined);
  if (!response.ok) throw errorOf(response.status, payload);
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw invalidResponse(path, parsed.error, response.status);
  return parsed.data;
}

/**
 * A file the daemon sends (an export): its bytes and the name it suggests. Errors read like
 * every other answer's; a daemon without the route (CompozyOS) answers 404 without our code.
 */
export async function fetchFile(
  path: string,
  query?: Record<string, string | number | undefined>,
): Promise<{ blob: Blob; fileName: string | undefined }> {
  const url = apiUrl(path, query);
  const headers: Record<string, string> = { Accept: "*/*" };
  const token = apiToken();
  if (token && isOwnOrigin(url)) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(url, { headers });
  } catch {
    throw new ApiError("Couldn't reach the daemon.", { status: 0, code: "network" });
  }
  if (!response.ok) {
    const error = errorOf(response.status, await response.json().catch(() => undefined));
    // A route the daemon lacks: the reference daemon's "no such endpoint", or a bare 404/405.
    const missing =
      error.code === undefined
        ? [404, 405].includes(error.status)
        : error.message === "no such endpoint";
    throw missing
      ? new ApiError("This daemon does not export sessions.", { status: error.status })
      : error;
  }
  const disposition = response.headers.get("Content-Disposition") ?? "";
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1];
  return { blob: await response.blob(), fileName };
}

/** The error of a non-2xx answer: the daemon's envelope in its words, or the bare status. */
function errorOf(status: number, payload: unknown): ApiError {
  const envelope = ErrorEnvelope.safeParse(payload);
  if (!envelope.success) return new ApiError(`The daemon answered ${status}.`, { status });
  return new ApiError(envelope.data.error, {
    status,
    code: envelope.data.code,
    ...(envelope.data.details ? { details: envelope.data.details } : {}),
  });
}

function unexpectedStream(path: string): never {
  throw new ApiError(`Unexpected event stream from ${path}.`, {
    status: 200,
    code: "invalid_response",
  });
}

/** The error of an answer that does not match its schema. */
function invalidResponse(path: string, error: z.core.$ZodError, status = 200): ApiError {
  return new ApiError(`Unexpected response from ${path}: ${error.issues[0]?.message}`, {
    status,
    code: "invalid_response",
  });
}

/**
 * Parses a long list a slice at a time, yielding to the page between slices, so a big
 * answer (every turn of a long session) is never one long main-thread task.
 */
export async function parseInSlices<T extends z.ZodMiniType>(
  path: string,
  items: readonly unknown[],
  item: T,
  signal?: AbortSignal,
  sliceSize = 400,
): Promise<z.infer<T>[]> {
  const list = z.array(item);
  const parsed: z.infer<T>[] = [];
  for (let start = 0; start < items.length; start += sliceSize) {
    if (start > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    signal?.throwIfAborted();
    const slice = list.safeParse(items.slice(start, start + sliceSize));
    if (!slice.success) throw invalidResponse(path, slice.error);
    for (const value of slice.data) parsed.push(value);
  }
  return parsed;
}

export async function getJson<S extends z.ZodMiniType>(
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<z.infer<S>> {
  const result = await send("GET", path, schema, undefined, options);
  return result === STREAMED ? unexpectedStream(path) : result;
}

export async function postJson<S extends z.ZodMiniType>(
  path: string,
  body: unknown,
  schema: S,
  options: RequestOptions = {},
): Promise<z.infer<S>> {
  const result = await send("POST", path, schema, body, options);
  return result === STREAMED ? unexpectedStream(path) : result;
}

export async function patchJson<S extends z.ZodMiniType>(
  path: string,
  body: unknown,
  schema: S,
  options: RequestOptions = {},
): Promise<z.infer<S>> {
  const result = await send("PATCH", path, schema, body, options);
  return result === STREAMED ? unexpectedStream(path) : result;
}

/** A POST whose 2xx answer is either JSON (parsed with `schema`) or a stream (`"streamed"`). */
export async function postAccepting<S extends z.ZodMiniType>(
  path: string,
  body: unknown,
  schema: S,
  options: RequestOptions = {},
): Promise<z.infer<S> | "streamed"> {
  const result = await send("POST", path, schema, body, options);
  return result === STREAMED ? "streamed" : result;
}

export const sessionPath = sessionApiPath;

/** A POST answered 204 (stop): any 2xx is success, whatever it carries. */
export async function postNoContent(path: string, options: RequestOptions = {}): Promise<void> {
  await send("POST", path, z.unknown(), {}, options);
}

/** A PUT without a body (pin a message), answered with JSON. */
export async function putJson<S extends z.ZodMiniType>(
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<z.infer<S>> {
  const result = await send("PUT", path, schema, undefined, options);
  return result === STREAMED ? unexpectedStream(path) : result;
}

/** A PUT or DELETE that carries a JSON body (or none) and is answered with JSON. */
export async function sendJson<S extends z.ZodMiniType>(
  method: "PUT" | "DELETE",
  path: string,
  body: unknown,
  schema: S,
  options: RequestOptions = {},
): Promise<z.infer<S>> {
  const result = await send(method, path, schema, body, options);
  return result === STREAMED ? unexpectedStream(path) : result;
}

/** A DELETE answered 204 (unpin): any 2xx is success. */
export async function deleteNoContent(path: string, options: RequestOptions = {}): Promise<void> {
  await send("DELETE", path, z.unknown(), undefined, options);
}
