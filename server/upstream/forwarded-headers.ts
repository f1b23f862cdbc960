// What crosses the proxy in each direction. Toward the upstream: the browser's headers
// minus hop-by-hop ones and minus everything that speaks for the browser's origin or
// credentials, with Host and Origin rewritten to the upstream's own (CompozyOS compares
// Origin to Host and Host to its bind address: internal/api/httpapi/middleware.go).
// Toward the browser: the upstream's headers minus hop-by-hop ones, cookies and CORS grants.

/** RFC 9110 §7.6.1 plus the legacy ones proxies still meet. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/**
 * Never forwarded upstream. The credential is the configured token alone (the browser's
 * Tideline token and cookies stay here); X-Forwarded-Proto would change the scheme
 * CompozyOS derives for its Host check; Referer would name Tideline's origin.
 */
const REQUEST_DROPPED = new Set([
  "host",
  "origin",
  "referer",
  "authorization",
  "cookie",
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-real-ip",
  "content-length",
  // Answered at Tideline's edge already; the body is streamed on regardless.
  "expect",
]);

/** Never returned to the browser: the proxy is its only origin and holds no session cookie. */
const RESPONSE_DROPPED = new Set(["set-cookie", "set-cookie2"]);

/** CompozyOS names its listener on every answer; its web mints stream tickets unless "local". */
export const GATEWAY_TIER_HEADER = "x-compozy-gateway-tier";

function connectionListed(value: string | null | undefined): Set<string> {
  return new Set(
    (value ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ""),
  );
}

export function upstreamRequestHeaders(incoming: Headers, upstream: URL): Record<string, string> {
  const listed = connectionListed(incoming.get("connection"));
  const out: Record<string, string> = {};
  for (const [name, value] of incoming) {
    if (HOP_BY_HOP.has(name) || listed.has(name) || REQUEST_DROPPED.has(name)) continue;
    out[name] = value;
  }
  out.host = upstream.host;
  // Only a browser request carries Origin; keeping its absence keeps CompozyOS's view of
  // "not a browser" (its pairing redeem treats the two differently).
  if (incoming.has("origin")) out.origin = upstream.origin;
  const length = incoming.get("content-length");
  if (length !== null && /^\d+$/.test(length)) out["content-length"] = length;
  return out;
}

/** `rawHeaders` pairs from node:http, so repeated headers stay separate. */
export function browserResponseHeaders(rawHeaders: readonly string[], upstream: URL): Headers {
  const listed = new Set<string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.toLowerCase() === "connection") {
      for (const name of connectionListed(rawHeaders[i + 1])) listed.add(name);
    }
  }
  const out = new Headers();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] ?? "").toLowerCase();
    const value = rawHeaders[i + 1] ?? "";
    if (HOP_BY_HOP.has(name) || listed.has(name) || RESPONSE_DROPPED.has(name)) continue;
    // A grant for the upstream's origin would let a page there read through the proxy.
    if (name.startsWith("access-control-")) continue;
    if (name === GATEWAY_TIER_HEADER) {
      // To the browser the proxy is a local listener: it needs no tickets, the proxy
      // mints them (stream-tickets.ts).
      out.set(name, "local");
      continue;
    }
    if (name === "location" && value.startsWith(upstream.origin)) {
      out.append(name, value.slice(upstream.origin.length) || "/");
      continue;
    }
    out.append(name, value);
  }
  return out;
}

/**
 * The query to forward: the browser's, byte for byte, minus the credentials meant for
 * Tideline (`access_token`, ADR 0006) and any `ticket` (the proxy mints its own).
 */
export function forwardedQuery(search: string): string {
  const raw = search.startsWith("?") ? search.slice(1) : search;
  if (raw === "") return "";
  return raw
    .split("&")
    .filter((pair) => {
      const key = pair.split("=", 1)[0] ?? "";
      let name = key;
      try {
        name = decodeURIComponent(key.replaceAll("+", " "));
      } catch {}
      return name !== "access_token" && name !== "ticket";
    })
    .join("&");
}
