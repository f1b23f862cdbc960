// The daemon side of docs/quality.md "Security", as Hono middleware:
//  - Host must name this daemon (loopback names or configured ones, on its own port): 403.
//    This is the DNS-rebinding defence and applies to every path, the SPA included.
//  - With a token configured, every /api request needs `Authorization: Bearer <token>`,
//    compared in constant time: 401 `unauthorized`.
//  - A POST, PATCH, PUT or DELETE that carries a body must say `Content-Type:
//    application/json` (415, code `invalid_request`), and every one of them, when an Origin
//    is present, must come from the daemon's own origin (403 `forbidden_origin`). Together
//    they keep cross-site forms and fetches from changing anything (CSRF). A bodiless one
//    (CompozyOS clients send stop, archive and cancel without a body) needs no type.
//  - Request bodies are capped at 1 MiB (413 `payload_too_large`).
import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError, sendError } from "./api-error";

export const MAX_BODY_BYTES = 1024 * 1024;

export type SecurityOptions = {
  /** Extra Host names accepted besides the loopback ones (`--allowed-host`). */
  allowedHosts: readonly string[];
  /**
   * The port the daemon listens on, once known (port 0 in tests). `undefined` accepts any
   * port, which is only right for in-process `app.request()` tests.
   */
  port: () => number | undefined;
  token?: string;
};

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]", "::1"];

/** Splits a Host header value into name and port; `undefined` when it is not a host. */
function parseHost(value: string): { name: string; port: string } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/\s@]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!match?.[1]) return undefined;
  return { name: match[1].toLowerCase(), port: match[2] ?? "" };
}

export function isAllowedHost(value: string | undefined, options: SecurityOptions): boolean {
  if (value === undefined) return false;
  const host = parseHost(value);
  if (!host) return false;
  // A configured `name:port` admits exactly that pair (e.g. the Vite dev server's
  // `localhost:5173` proxying to the daemon); a bare name shares the daemon's port.
  for (const allowed of options.allowedHosts) {
    const entry = parseHost(allowed);
    if (entry?.port !== "" && entry?.name === host.name && entry.port === host.port) return true;
  }
  const names = [
    ...LOOPBACK_NAMES,
    ...options.allowedHosts.flatMap((name) => {
      const entry = parseHost(name);
      return entry?.port === "" ? [entry.name] : [];
    }),
  ];
  if (!names.includes(host.name)) return false;
  const port = options.port();
  if (port === undefined) return true;
  return host.port === String(port) || (host.port === "" && port === 80);
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** Constant-time: both sides are hashed to equal lengths first. */
export function tokenMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer (.+)$/.exec(header ?? "")?.[1] ?? "";
  return timingSafeEqual(digest(presented), digest(token));
}

/** The Host value of the request: the header when present, else the URL's (in-process). */
function requestHost(header: string | undefined, url: string): string {
  return header ?? new URL(url).host;
}

export function hostGuard(options: SecurityOptions): MiddlewareHandler {
  return async (c, next) => {
    if (!isAllowedHost(requestHost(c.req.header("host"), c.req.url), options)) {
      return sendError(c, new ApiError(403, "forbidden_origin", "host not allowed"));
    }
    await next();
  };
}

/** The one route that takes `?access_token=`: a session's stream, exactly (not a suffix). */
const STREAM_ROUTE = /^\/api\/workspaces\/[^/]+\/sessions\/[^/]+\/stream$/;
/** The session list's wake signals (ADR 0141): read-only, an EventSource's too. */
const CATALOG_STREAM_PATH = "/api/sessions/catalog-stream";

/**
 * A browser's EventSource cannot send headers, so the read-only streams alone also accept
 * the token as `?access_token=` (ADR 0006). Nothing that changes state takes it that way.
 */
function presentedToken(c: Parameters<MiddlewareHandler>[0]): string | undefined {
  const header = c.req.header("authorization");
  if (header !== undefined) return header;
  const fromQuery = c.req.query("access_token");
  const stream = STREAM_ROUTE.test(c.req.path) || c.req.path === CATALOG_STREAM_PATH;
  if (c.req.method === "GET" && stream && fromQuery !== undefined) {
    return `Bearer ${fromQuery}`;
  }
  return undefined;
}

export function tokenGuard(options: SecurityOptions): MiddlewareHandler {
  return async (c, next) => {
    if (options.token !== undefined && !tokenMatches(presentedToken(c), options.token)) {
      return sendError(c, new ApiError(401, "unauthorized", "missing or wrong bearer token"));
    }
    await next();
  };
}

function isJsonContentType(value: string | undefined): boolean {
  return (value ?? "").split(";")[0]?.trim().toLowerCase() === "application/json";
}

const WRITE_METHODS = new Set(["POST", "PATCH", "PUT", "DELETE"]);

/** A request says it has a body by a non-zero length or a transfer encoding. */
function hasBody(headers: Headers): boolean {
  const length = headers.get("content-length");
  if (length !== null) return length.trim() !== "0";
  return headers.has("transfer-encoding") || headers.has("content-type");
}

/** Content type, origin and size rules for state-changing requests. */
export function writeGuard(options: SecurityOptions): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) =>
      sendError(c, new ApiError(413, "payload_too_large", "request body exceeds 1 MiB")),
  });
  return async (c, next) => {
    if (!WRITE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header("origin");
    if (origin !== undefined && !isOwnOrigin(origin, c.req.header("host"), c.req.url, options)) {
      return sendError(c, new ApiError(403, "forbidden_origin", "origin not allowed"));
    }
    if (hasBody(c.req.raw.headers) && !isJsonContentType(c.req.header("content-type"))) {
      return sendError(
        c,
        new ApiError(415, "invalid_request", "content type must be application/json"),
      );
    }
    return limit(c, next);
  };
}

/** Same origin: `http://` plus the very Host this request was addressed to (already vetted). */
function isOwnOrigin(
  origin: string,
  hostHeader: string | undefined,
  url: string,
  options: SecurityOptions,
): boolean {
  const host = requestHost(hostHeader, url);
  return origin.toLowerCase() === `http://${host.toLowerCase()}` && isAllowedHost(host, options);
}
