// Test support: a stand-in for a CompozyOS daemon on 127.0.0.1:0 that enforces the rules
// the proxy has to satisfy, written from CompozyOS's source:
//  - internal/api/httpapi/middleware.go: an Origin must be the request's own origin (Host),
//    and a request carrying Origin or Sec-Fetch-Site must be addressed to a Host compatible
//    with the bind address (loopback bind: a loopback Host); X-Forwarded-Proto sets the
//    scheme; unsafe methods pass Go's CrossOriginProtection; bodies are capped at 4 MiB.
//  - gateway_auth.go / core/gateway.go: a gateway (tier) listener needs the bearer
//    credential, except on stream requests, which need a single-use `?ticket=` minted by
//    `POST /api/gateway/stream-tickets`; every answer names the tier in X-Compozy-Gateway-Tier.
// Everything it receives is recorded for the assertions.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isTicketedStreamRequest } from "../upstream/stream-requests";

export type FakeCompozyOptions = {
  /** "local" (no auth) or a gateway tier ("private", "public"). */
  tier?: "local" | "private" | "public";
  /** The device credential a gateway listener accepts. */
  credential?: string;
};

export type RecordedRequest = {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  bodyBytes: number;
};

export type FakeStream = {
  url: string;
  send(event: string, data: unknown): void;
  closed: Promise<void>;
  isClosed(): boolean;
};

export type FakeCompozy = {
  url: string;
  requests: RecordedRequest[];
  streams: FakeStream[];
  minted: string[];
  /** Resolves with the next stream opened (or the n-th, counting from 1). */
  nextStream(): Promise<FakeStream>;
  stop(): Promise<void>;
};

const MAX_BODY = 4 << 20;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

type Origin = { scheme: string; hostname: string; port: string; canonical: string };

function canonical(scheme: string, host: string): Origin | undefined {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host.trim());
  if (!match?.[1]) return undefined;
  const hostname = match[1].replace(/^\[|\]$/g, "").toLowerCase();
  const port = match[2] ?? (scheme === "https" ? "443" : scheme === "http" ? "80" : "");
  if (port === "") return undefined;
  return { scheme, hostname, port, canonical: `${scheme}://${hostname}:${port}` };
}

function originOf(value: string): Origin | undefined {
  try {
    const url = new URL(value);
    return canonical(url.protocol.replace(":", ""), url.host);
  } catch {
    return undefined;
  }
}

function json(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

export async function startFakeCompozy(options: FakeCompozyOptions = {}): Promise<FakeCompozy> {
  const tier = options.tier ?? "local";
  const gateway = tier !== "local";
  const requests: RecordedRequest[] = [];
  const streams: FakeStream[] = [];
  const minted: string[] = [];
  const liveTickets = new Set<string>();
  let streamWaiters: ((stream: FakeStream) => void)[] = [];

  function refuseBrowserRules(req: IncomingMessage): string | undefined {
    const scheme = String(req.headers["x-forwarded-proto"] ?? "http").toLowerCase();
    const request = canonical(scheme, req.headers.host ?? "");
    const origin = req.headers.origin;
    const site = req.headers["sec-fetch-site"];
    if (origin !== undefined) {
      const spec = originOf(origin);
      if (spec === undefined || request === undefined) return "origin not allowed";
      // A tier listener trusts its forwarded target; the local one also checks the bind.
      const sameAsRequest = spec.canonical === request.canonical;
      // The bind address (127.0.0.1) on the request's port is the other accepted origin.
      const sameAsBind = spec.canonical === `${scheme}://127.0.0.1:${request.port}`;
      if (!(gateway && sameAsRequest)) {
        if (scheme !== "http" || !LOOPBACK.has(request.hostname)) return "origin not allowed";
        if (!sameAsRequest && !sameAsBind) return "origin not allowed";
      }
    }
    if (origin !== undefined || site !== undefined) {
      if (request === undefined) return "request host not allowed";
      if (!gateway && (scheme !== "http" || !LOOPBACK.has(request.hostname))) {
        return "request host not allowed";
      }
    }
    if (!["GET", "HEAD", "OPTIONS"].includes(req.method ?? "")) {
      if (site !== undefined) {
        if (site !== "same-origin" && site !== "none") return "cross-origin request not allowed";
      } else if (origin !== undefined) {
        let originHost = "";
        try {
          originHost = new URL(origin).host;
        } catch {}
        if (originHost !== req.headers.host) return "cross-origin request not allowed";
      }
    }
    return undefined;
  }

  function authenticate(
    req: IncomingMessage,
    url: URL,
  ): { status: number; code: string } | undefined {
    if (!gateway) return undefined;
    if (isTicketedStreamRequest(req.method ?? "", url.pathname, url.searchParams)) {
      const ticket = url.searchParams.get("ticket")?.trim() ?? "";
      if (!liveTickets.delete(ticket))
        return { status: 401, code: "gateway_stream_ticket_invalid" };
      return undefined;
    }
    const parts = (req.headers.authorization ?? "").trim().split(/\s+/);
    const presented = parts.length === 2 && parts[0]?.toLowerCase() === "bearer" ? parts[1] : "";
    if (options.credential === undefined || presented !== options.credential) {
      return { status: 401, code: "gateway_device_unauthenticated" };
    }
    return undefined;
  }

  /** Like Go's MaxBytesReader: counts, and past the limit stops caring (the rest is discarded). */
  function readBody(req: IncomingMessage): Promise<number | "too_large"> {
    if (Number(req.headers["content-length"] ?? "0") > MAX_BODY)
      return Promise.resolve("too_large");
    return new Promise((resolve) => {
      let bytes = 0;
      let done = false;
      const finish = (result: number | "too_large") => {
        if (done) return;
        done = true;
        resolve(result);
      };
      req.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > MAX_BODY) finish("too_large");
      });
      req.on("end", () => finish(bytes));
      req.on("error", () => finish(bytes));
    });
  }

  function openStream(req: IncomingMessage, res: ServerResponse) {
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    res.flushHeaders();
    let closed = false;
    let markClosed: () => void = () => {};
    const closedPromise = new Promise<void>((resolve) => {
      markClosed = resolve;
    });
    req.socket.once("close", () => {
      closed = true;
      markClosed();
    });
    const stream: FakeStream = {
      url: req.url ?? "",
      send(event, data) {
        res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      },
      closed: closedPromise,
      isClosed: () => closed,
    };
    streams.push(stream);
    const waiters = streamWaiters;
    streamWaiters = [];
    for (const waiter of waiters) waiter(stream);
  }

  const server = createServer(async (req, res) => {
    const socket = req.socket;
    res.setHeader("X-Compozy-Gateway-Tier", tier);
    const url = new URL(req.url ?? "/", "http://fake.invalid");
    const record: RecordedRequest = {
      method: req.method ?? "",
      url: req.url ?? "",
      headers: req.headers,
      bodyBytes: 0,
    };
    requests.push(record);
    const origin = req.headers.origin;
    const refusal = refuseBrowserRules(req);
    if (refusal !== undefined) {
      req.resume();
      return json(res, 403, { error: refusal });
    }
    if (origin !== undefined) res.setHeader("Access-Control-Allow-Origin", origin);
    const body = await readBody(req);
    if (body === "too_large") {
      // Go's lingering close: answer, keep discarding what still arrives for a moment so
      // the client can read the answer, then close the connection.
      req.resume();
      json(res, 413, { error: "request body too large" });
      setTimeout(() => socket.destroy(), 200);
      return;
    }
    record.bodyBytes = body;
    const denied = authenticate(req, url);
    if (denied !== undefined)
      return json(res, denied.status, { error: "unauthorized", code: denied.code });

    if (req.method === "GET" && url.pathname === "/api/status") {
      return json(res, 200, { status: "ok" });
    }
    if (req.method === "POST" && url.pathname === "/api/gateway/stream-tickets" && gateway) {
      const ticket = randomBytes(12).toString("base64url");
      minted.push(ticket);
      liveTickets.add(ticket);
      return json(res, 201, { ticket, expires_at: new Date(Date.now() + 60_000).toISOString() });
    }
    if (req.method === "GET" && url.pathname.endsWith("/stream")) return openStream(req, res);
    if (req.method === "GET" && url.pathname === "/api/no-content") {
      res.writeHead(204);
      return res.end();
    }
    // Everything else echoes what arrived, so tests can see exactly what was forwarded.
    res.setHeader("Set-Cookie", "compozy_gateway_device=leak; Path=/; HttpOnly");
    return json(res, 200, {
      method: req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      bodyBytes: body,
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    streams,
    minted,
    nextStream() {
      return new Promise((resolve) => streamWaiters.push(resolve));
    },
    stop() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
