// Tideline's edge in upstream mode. The proxy adds the upstream's credential to what it
// forwards, so it refuses what a foreign page could make a browser send before anything is
// forwarded: any request whose Origin is not this daemon's own, and any request, whatever
// its method, the browser marks as `cross-site` or `same-site` — a GET too, since each
// forwarded stream mints a ticket with the credential (ADR 0175). Host has been vetted by
// hostGuard already (DNS rebinding).
import type { MiddlewareHandler } from "hono";

/** `same-origin` (the SPA) and `none` (typed in the address bar) are the person's own. */
const OWN_FETCH = new Set(["same-origin", "none"]);

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
    if (site !== undefined && !OWN_FETCH.has(site.trim().toLowerCase())) {
      return forbidden("cross-origin request not allowed");
    }
    await next();
  };
}
