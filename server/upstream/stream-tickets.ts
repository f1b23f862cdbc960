// Stream authentication toward a CompozyOS gateway listener. Such a listener (tier
// "private" or "public" in `X-Compozy-Gateway-Tier`) takes no bearer on a stream request:
// it wants `?ticket=`, minted by `POST /api/gateway/stream-tickets` with the bearer and
// spent on first use (gateway_auth.go, core/gateway.go). The local listener needs none.
// So, like CompozyOS's own web (web/src/lib/gateway-stream-auth.ts), the proxy learns the
// tier from the upstream's answers (or one `GET /api/status`) and mints one fresh ticket
// per forwarded stream; the browser never sees the token or a ticket.
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { asJsonObject } from "../../src/contract/json-value";
import { GATEWAY_TIER_HEADER } from "./forwarded-headers";
import { createMintBudget, type MintBudget } from "./mint-budget";
import type { UpstreamClient } from "./upstream-client";

type StreamAuthorization =
  | { kind: "bearer" }
  | { kind: "ticket"; ticket: string }
  /** The upstream would not mint: its status and body go back to the browser as they are. */
  | { kind: "refused"; status: number; body: string; contentType: string; retryAfter?: number };

export type StreamTickets = {
  /** Latches the tier from any upstream answer. */
  observe(response: IncomingMessage): void;
  authorize(signal: AbortSignal | undefined): Promise<StreamAuthorization>;
};

const MAX_CONTROL_BODY = 64 * 1024;

async function readBody(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size > MAX_CONTROL_BODY) {
      response.destroy();
      throw new Error("upstream answer too large");
    }
  }
  return Buffer.concat(chunks).toString("utf8");
}

function tierOf(response: IncomingMessage): string {
  const value = response.headers[GATEWAY_TIER_HEADER];
  return (Array.isArray(value) ? value[0] : value)?.trim().toLowerCase() ?? "";
}

export function createStreamTickets(options: {
  client: UpstreamClient;
  upstream: URL;
  token: string | undefined;
  log: (line: string) => void;
  budget?: MintBudget;
}): StreamTickets {
  const { client, upstream, token, log } = options;
  const budget = options.budget ?? createMintBudget();
  /** `undefined`: not learnt yet; `""`: the upstream names no tier (not a gateway). */
  let tier: string | undefined;
  let probe: Promise<void> | undefined;
  let warnedNoToken = false;

  const baseHeaders = (): Record<string, string> => ({
    host: upstream.host,
    accept: "application/json",
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
  });

  // Only an answer that names a tier changes it: an error page from something in front of
  // the upstream must not switch a gateway back to bearer streams.
  const observe = (response: IncomingMessage) => {
    const named = tierOf(response);
    if (named !== "") tier = named;
  };

  /** Shared by concurrent first streams, so it carries no one caller's abort signal. */
  async function learnTier() {
    probe ??= (async () => {
      const response = await client.send({
        method: "GET",
        path: "/api/status",
        headers: baseHeaders(),
      });
      response.resume();
      tier = tierOf(response);
    })().finally(() => {
      probe = undefined;
    });
    await probe;
  }

  async function authorize(signal: AbortSignal | undefined): Promise<StreamAuthorization> {
    if (tier === undefined) await learnTier();
    if (tier === "" || tier === "local" || tier === undefined) return { kind: "bearer" };
    if (token === undefined && !warnedNoToken) {
      warnedNoToken = true;
      log(
        `[upstream] ${upstream.origin} is a gateway listener (tier ${tier}): pass --upstream-token`,
      );
    }
    if (!budget.take()) {
      return {
        kind: "refused",
        status: 429,
        body: JSON.stringify({
          error: "too many streams opened: stream tickets are rate limited",
          code: "rate_limited",
        }),
        contentType: "application/json",
        retryAfter: budget.retryAfterSeconds(),
      };
    }
    const response = await client.send({
      method: "POST",
      path: "/api/gateway/stream-tickets",
      headers: { ...baseHeaders(), "content-type": "application/json", "content-length": "2" },
      body: bodyOf("{}"),
      ...(signal === undefined ? {} : { signal }),
    });
    observe(response);
    const text = await readBody(response);
    const status = response.statusCode ?? 502;
    if (status < 200 || status > 299) {
      return {
        kind: "refused",
        status,
        body: text,
        contentType: String(response.headers["content-type"] ?? "application/json"),
      };
    }
    const ticket = parseTicket(text);
    if (ticket === undefined) {
      return {
        kind: "refused",
        status: 502,
        body: JSON.stringify({
          error: "the upstream minted no usable stream ticket",
          code: "upstream_bad_ticket",
        }),
        contentType: "application/json",
      };
    }
    return { kind: "ticket", ticket };
  }

  return { observe, authorize };
}

function parseTicket(text: string): string | undefined {
  try {
    const ticket = asJsonObject(JSON.parse(text))?.ticket;
    return typeof ticket === "string" && ticket.trim() !== "" ? ticket.trim() : undefined;
  } catch {
    return undefined;
  }
}

function bodyOf(text: string): Readable {
  return Readable.from([Buffer.from(text)]);
}
