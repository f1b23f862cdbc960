// What the browser gets back from a forwarded request: the upstream's answer streamed
// through unbuffered (with its headers filtered), or one of the proxy's own JSON errors
// when the upstream cannot be reached, breaks off, or answers nonsense.
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { browserResponseHeaders } from "./forwarded-headers";
import { UpstreamUnreachable } from "./upstream-client";

const NO_BODY_STATUSES = new Set([101, 204, 205, 304]);

function errorResponse(status: number, error: string, code: string): Response {
  return new Response(JSON.stringify({ error, code }), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/** The upstream's answer to `method`, as the browser's response. */
export function toBrowser(response: IncomingMessage, method: string, upstream: URL): Response {
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 599) {
    response.destroy();
    return errorResponse(502, `the upstream answered status ${status}`, "upstream_failed");
  }
  const headers = browserResponseHeaders(response.rawHeaders, upstream);
  if (method === "HEAD" || NO_BODY_STATUSES.has(status)) {
    response.resume();
    return new Response(null, { status, headers });
  }
  return new Response(Readable.toWeb(response) as ReadableStream<Uint8Array>, {
    status,
    headers,
  });
}

/** The browser's answer when forwarding failed; an unexpected failure is logged. */
export function failureResponse(
  error: unknown,
  request: { method: string; path: string; aborted: boolean },
  upstream: URL,
  log: (line: string) => void,
): Response {
  if (request.aborted) return errorResponse(499, "the client went away", "client_closed");
  if (error instanceof UpstreamUnreachable) {
    return errorResponse(
      502,
      `cannot reach the upstream daemon at ${upstream.origin} (${error.reason})`,
      "upstream_unreachable",
    );
  }
  log(`[upstream] ${request.method} ${request.path} failed: ${String(error)}`);
  return errorResponse(
    502,
    `the upstream daemon at ${upstream.origin} broke off the answer`,
    "upstream_failed",
  );
}
