// Forwards one browser request under /api to the upstream and streams the answer back
// unbuffered (an SSE event reaches the browser as soon as the upstream flushes it). The
// upstream's address comes from the configuration only: the request contributes its method,
// path, query, headers and body, never a host.
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { Context } from "hono";
import {
  browserResponseHeaders,
  forwardedQuery,
  GATEWAY_TIER_HEADER,
  upstreamRequestHeaders,
} from "./forwarded-headers";
import { isTicketedStreamRequest } from "./stream-requests";
import { createStreamTickets } from "./stream-tickets";
import { createUpstreamClient, UpstreamUnreachable } from "./upstream-client";
import type { UpstreamTarget } from "./upstream-target";

export type UpstreamProxy = {
  forward(c: Context): Promise<Response>;
  /** One line for the startup log: does the upstream answer, and as what. */
  describe(): Promise<string>;
  close(): void;
};

const NO_BODY_STATUSES = new Set([101, 204, 205, 304]);

function errorResponse(status: number, error: string, code: string): Response {
  return new Response(JSON.stringify({ error, code }), {
    status,
    headers: { "content-type": "application/json" },
  });
}

export function createUpstreamProxy(
  target: UpstreamTarget,
  options: { log?: (line: string) => void; connectTimeoutMs?: number } = {},
): UpstreamProxy {
  const log = options.log ?? ((line: string) => console.error(line));
  const client = createUpstreamClient(target.url, {
    ...(options.connectTimeoutMs === undefined
      ? {}
      : { connectTimeoutMs: options.connectTimeoutMs }),
  });
  const tickets = createStreamTickets({ client, upstream: target.url, token: target.token, log });

  /**
   * Adds the upstream credential: the bearer, or on a gateway's stream request a fresh
   * ticket in the query. A refused mint is answered to the browser as it is.
   */
  async function authenticate(
    method: string,
    url: URL,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<{ query: string } | { refused: Response }> {
    const query = forwardedQuery(url.search);
    const bearer = () => {
      if (target.token !== undefined) headers.authorization = `Bearer ${target.token}`;
      return { query };
    };
    if (!isTicketedStreamRequest(method, url.pathname, url.searchParams)) return bearer();
    const auth = await tickets.authorize(signal);
    if (auth.kind === "bearer") return bearer();
    if (auth.kind === "refused") {
      return {
        refused: new Response(auth.body, {
          status: auth.status,
          headers: {
            "content-type": auth.contentType,
            ...(auth.retryAfter === undefined ? {} : { "retry-after": String(auth.retryAfter) }),
          },
        }),
      };
    }
    const ticket = `ticket=${encodeURIComponent(auth.ticket)}`;
    return { query: query === "" ? ticket : `${query}&${ticket}` };
  }

  async function forward(c: Context): Promise<Response> {
    const incoming = c.req.raw;
    // Only the path and query of the (already normalised) request URL are used: an
    // absolute-form request target names its own host, which is ignored here.
    const url = new URL(incoming.url);
    const method = incoming.method.toUpperCase();
    const headers = upstreamRequestHeaders(incoming.headers, target.url);
    const signal = incoming.signal;
    try {
      const auth = await authenticate(method, url, headers, signal);
      if ("refused" in auth) return auth.refused;
      const body =
        method === "GET" || method === "HEAD" || incoming.body === null
          ? undefined
          : Readable.fromWeb(incoming.body as NodeReadableStream<Uint8Array>);
      const response = await client.send({
        method,
        path: `${url.pathname}${auth.query === "" ? "" : `?${auth.query}`}`,
        headers,
        signal,
        ...(body === undefined ? {} : { body }),
      });
      tickets.observe(response);
      return toBrowser(response, method);
    } catch (error) {
      if (signal.aborted) return errorResponse(499, "the client went away", "client_closed");
      if (error instanceof UpstreamUnreachable) {
        return errorResponse(
          502,
          `cannot reach the upstream daemon at ${target.url.origin} (${error.reason})`,
          "upstream_unreachable",
        );
      }
      log(`[upstream] ${method} ${url.pathname} failed: ${String(error)}`);
      return errorResponse(
        502,
        `the upstream daemon at ${target.url.origin} broke off the answer`,
        "upstream_failed",
      );
    }
  }

  function toBrowser(response: IncomingMessage, method: string): Response {
    const status = response.statusCode ?? 0;
    if (status < 200 || status > 599) {
      response.destroy();
      return errorResponse(502, `the upstream answered status ${status}`, "upstream_failed");
    }
    const headers = browserResponseHeaders(response.rawHeaders, target.url);
    if (method === "HEAD" || NO_BODY_STATUSES.has(status)) {
      response.resume();
      return new Response(null, { status, headers });
    }
    return new Response(Readable.toWeb(response) as ReadableStream<Uint8Array>, {
      status,
      headers,
    });
  }

  async function describe(): Promise<string> {
    const headers: Record<string, string> = { host: target.url.host, accept: "application/json" };
    if (target.token !== undefined) headers.authorization = `Bearer ${target.token}`;
    try {
      const response = await client.send({ method: "GET", path: "/api/status", headers });
      response.resume();
      tickets.observe(response);
      const tier = response.headers[GATEWAY_TIER_HEADER];
      const kind =
        tier === undefined
          ? "no CompozyOS gateway tier"
          : `CompozyOS listener tier ${String(tier)}`;
      return `${target.url.origin} answered GET /api/status with ${response.statusCode} (${kind})`;
    } catch (error) {
      const reason = error instanceof UpstreamUnreachable ? error.reason : String(error);
      return `${target.url.origin} is not reachable yet (${reason})`;
    }
  }

  return { forward, describe, close: () => client.close() };
}
