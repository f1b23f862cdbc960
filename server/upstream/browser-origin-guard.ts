// Tideline's edge in upstream mode. The proxy adds the upstream's credential to what it
// forwards, so it must refuse what CompozyOS itself would refuse from a foreign page before
// anything is forwarded: any request whose Origin is not this daemon's own, and an unsafe
// method the browser marks as cross-site (Go's CrossOriginProtection, which CompozyOS uses).
// Host has been vetted by hostGuard already (DNS rebinding).
import type { MiddlewareHandler } from "hono";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const SAME_SITE_FETCH = new Set(["same-origin", "none"]);

function forbidden(error: string): Response {
  return new Response(JSON.stringify({ error, code: "forbidden_origin" }), {
    status: 403,
    headers: { "content-type": "application/json" },
  });
}

export function browserOriginGuard(): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header("host") ?? new URL(c.req.url).host;
    const origin = c.req.header("origin");
    if (origin !== undefined && origin.toLowerCase() !== `http://${host.toLowerCase()}`) {
      return forbidden("origin not allowed");
    }
    const site = c.req.header("sec-fetch-site");
    if (!SAFE_METHODS.has(c.req.method) && site !== undefined && !SAME_SITE_FETCH.has(site)) {
      return forbidden("cross-origin request not allowed");
    }
    await next();
  };
}
