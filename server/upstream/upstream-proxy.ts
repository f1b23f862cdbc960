// Forwards one browser request under /api to the upstream and streams the answer back
// unbuffered (an SSE event reaches the browser as soon as the upstream flushes it). The
// upstream's address comes from the configuration only: the request contributes its method,
// path, query, headers and body, never a host. The credential is upstream-credential.ts,
// the answer upstream-answer.ts.
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { Context } from "hono";
import { GATEWAY_TIER_HEADER, upstreamRequestHeaders } from "./forwarded-headers";
import { createStreamTickets, type StreamTickets } from "./stream-tickets";
import { failureResponse, toBrowser } from "./upstream-answer";
import { createUpstreamClient, type UpstreamClient, UpstreamUnreachable } from "./upstream-client";
import { authenticate } from "./upstream-credential";
import type { UpstreamTarget } from "./upstream-target";

export type UpstreamProxy = {
  forward(c: Context): Promise<Response>;
  /** One line for the startup log: does the upstream answer, and as what. */
  describe(): Promise<string>;
  close(): void;
};

type Upstream = {
  target: UpstreamTarget;
  client: UpstreamClient;
  tickets: StreamTickets;
  log: (line: string) => void;
};

async function forwardRequest(upstream: Upstream, c: Context): Promise<Response> {
  const { target, client, tickets } = upstream;
  const incoming = c.req.raw;
  // Only the path and query of the (already normalised) request URL are used: an
  // absolute-form request target names its own host, which is ignored here.
  const url = new URL(incoming.url);
  const method = incoming.method.toUpperCase();
  const headers = upstreamRequestHeaders(incoming.headers, target.url);
  const signal = incoming.signal;
  try {
    const auth = await authenticate(upstream, { method, url, headers, signal });
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
    return toBrowser(response, method, target.url);
  } catch (error) {
    const request = { method, path: url.pathname, aborted: signal.aborted };
    return failureResponse(error, request, target.url, upstream.log);
  }
}

async function describeUpstream({ target, client, tickets }: Upstream): Promise<string> {
  const headers: Record<string, string> = { host: target.url.host, accept: "application/json" };
  if (target.token !== undefined) headers.authorization = `Bearer ${target.token}`;
  try {
    const response = await client.send({ method: "GET", path: "/api/status", headers });
    response.resume();
    tickets.observe(response);
    const tier = response.headers[GATEWAY_TIER_HEADER];
    const kind =
      tier === undefined ? "no CompozyOS gateway tier" : `CompozyOS listener tier ${String(tier)}`;
    return `${target.url.origin} answered GET /api/status with ${response.statusCode} (${kind})`;
  } catch (error) {
    const reason = error instanceof UpstreamUnreachable ? error.reason : String(error);
    return `${target.url.origin} is not reachable yet (${reason})`;
  }
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
  const upstream: Upstream = { target, client, tickets, log };
  return {
    forward: (c) => forwardRequest(upstream, c),
    describe: () => describeUpstream(upstream),
    close: () => client.close(),
  };
}
