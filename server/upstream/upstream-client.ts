// One request to the upstream over node:http(s) rather than fetch: the proxy sets Host
// itself (fetch overrides it), needs the raw header list of the answer, streams bodies
// both ways with backpressure, and closes the upstream socket the moment the browser goes.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { pipeline, type Readable } from "node:stream";
import { upstreamPort } from "./upstream-target";

export type UpstreamRequest = {
  method: string;
  /** Path and query, already checked to start with `/api`. */
  path: string;
  headers: Record<string, string>;
  body?: Readable;
  signal?: AbortSignal;
};

/** A refusal to connect, DNS failure or connect timeout: the upstream is not there. */
export class UpstreamUnreachable extends Error {
  override name = "UpstreamUnreachable";
  readonly reason: string;
  constructor(reason: string) {
    super(`upstream unreachable: ${reason}`);
    this.reason = reason;
  }
}

export type UpstreamClient = {
  send(request: UpstreamRequest): Promise<IncomingMessage>;
  close(): void;
};

export function createUpstreamClient(url: URL, options: { connectTimeoutMs?: number } = {}) {
  const https = url.protocol === "https:";
  const agent = https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  // Brackets off: node:http wants the bare IPv6 address.
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const port = upstreamPort(url);

  function send(request: UpstreamRequest): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      if (request.signal?.aborted) {
        reject(new DOMException("aborted", "AbortError"));
        return;
      }
      const outgoing = (https ? httpsRequest : httpRequest)({
        agent,
        hostname,
        port,
        method: request.method,
        path: request.path,
        headers: request.headers,
        // Host is set explicitly in headers; node would otherwise add its own.
        setHost: false,
      });
      let connected = false;
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        if (request.signal?.aborted) reject(new DOMException("aborted", "AbortError"));
        else if (!connected) reject(new UpstreamUnreachable(reasonOf(error)));
        else reject(error);
      };
      const connectTimer = setTimeout(() => {
        outgoing.destroy(new Error(`no connection within ${connectTimeoutMs} ms`));
      }, connectTimeoutMs);
      outgoing.on("socket", (socket) => {
        if (!socket.connecting) {
          connected = true;
          clearTimeout(connectTimer);
          return;
        }
        socket.once(https ? "secureConnect" : "connect", () => {
          connected = true;
          clearTimeout(connectTimer);
        });
      });
      const onAbort = () => outgoing.destroy();
      request.signal?.addEventListener("abort", onAbort, { once: true });
      outgoing.on("close", () => {
        clearTimeout(connectTimer);
        request.signal?.removeEventListener("abort", onAbort);
      });
      outgoing.on("error", fail);
      outgoing.on("response", (response) => {
        clearTimeout(connectTimer);
        settled = true;
        // The browser leaving after the answer began closes the upstream side too.
        const closeResponse = () => response.destroy();
        request.signal?.addEventListener("abort", closeResponse, { once: true });
        response.once("close", () => request.signal?.removeEventListener("abort", closeResponse));
        resolve(response);
      });
      if (request.body === undefined) {
        outgoing.end();
      } else {
        // The upstream may answer (413) and close before the body is sent: not our error.
        pipeline(request.body, outgoing, () => {});
      }
    });
  }

  return {
    send,
    close: () => agent.destroy(),
  } satisfies UpstreamClient;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
