// The upstream daemon `--upstream` names: an http(s) origin and, for a CompozyOS gateway
// listener, the bearer token the proxy presents. Validated once at startup so a typo is a
// one-line error instead of a 502 on every request.

export type UpstreamTarget = {
  /** Scheme, host and port only (no path, query, fragment or credentials). */
  url: URL;
  /** Sent as `Authorization: Bearer …`; never shown to the browser. */
  token?: string;
};

export class UpstreamTargetError extends Error {
  override name = "UpstreamTargetError";
}

/** RFC 6750 `b64token`: what a bearer credential may contain, so it cannot split a header. */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

export function parseUpstreamTarget(value: string, token?: string): UpstreamTarget {
  const example = "an http(s) URL such as http://127.0.0.1:2123";
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new UpstreamTargetError(`--upstream must be ${example}, got "${value}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UpstreamTargetError(`--upstream must be ${example}, got scheme "${url.protocol}"`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new UpstreamTargetError(
      "--upstream must not carry credentials in the URL; use --upstream-token",
    );
  }
  // Every /api path is forwarded as it is, so a base path would silently be dropped.
  if ((url.pathname !== "/" && url.pathname !== "") || url.search !== "" || url.hash !== "") {
    throw new UpstreamTargetError(
      `--upstream must be an origin only (scheme, host, port), got "${value}"`,
    );
  }
  if (token !== undefined && token !== "" && !BEARER_TOKEN.test(token)) {
    throw new UpstreamTargetError(
      "--upstream-token must be a bearer token (letters, digits, -._~+/ and trailing =)",
    );
  }
  return { url: new URL(url.origin), ...(token === undefined || token === "" ? {} : { token }) };
}

/** The port the upstream listens on, explicit or implied by its scheme. */
export function upstreamPort(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}
