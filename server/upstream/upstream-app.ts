// The daemon in upstream mode: the built SPA with Tideline's own security headers, and every
// /api request forwarded to the upstream daemon. No ledger, no agents: the upstream owns
// the sessions. Tideline's Host rule and its `--token` for browsers still apply.
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { hostGuard, MAX_BODY_BYTES, type SecurityOptions, tokenGuard } from "../http/security";
import { mountStaticSite, SPA_HEADERS } from "../http/static-site";
import { browserOriginGuard } from "./browser-origin-guard";
import { createUpstreamProxy, type UpstreamProxy } from "./upstream-proxy";
import type { UpstreamTarget } from "./upstream-target";

export type UpstreamAppDeps = {
  upstream: UpstreamTarget;
  security: SecurityOptions;
  /** The built SPA; absent in API-only tests. */
  distDir?: string;
  log?: (line: string) => void;
  connectTimeoutMs?: number;
};

export function createUpstreamApp(deps: UpstreamAppDeps): { app: Hono; proxy: UpstreamProxy } {
  const app = new Hono();
  const proxy = createUpstreamProxy(deps.upstream, {
    ...(deps.log === undefined ? {} : { log: deps.log }),
    ...(deps.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: deps.connectTimeoutMs }),
  });

  app.use("*", hostGuard(deps.security));
  app.use("/api/*", tokenGuard(deps.security));
  app.use("/api/*", browserOriginGuard());
  // The reference daemon's own limit: nothing larger is worth forwarding with the credential.
  app.use(
    "/api/*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      // The unread rest of the body makes the connection unusable: the client must not reuse it.
      onError: (c) =>
        c.json({ error: "request body exceeds 1 MiB", code: "payload_too_large" }, 413, {
          Connection: "close",
        }),
    }),
  );
  app.use("/api/*", async (c, next) => {
    await next();
    c.res.headers.set("X-Content-Type-Options", SPA_HEADERS["X-Content-Type-Options"]);
  });
  app.all("/api/*", (c) => proxy.forward(c));
  app.all("/api", (c) => proxy.forward(c));
  if (deps.distDir !== undefined) mountStaticSite(app, deps.distDir);
  app.notFound((c) => c.json({ error: "not found", code: "not_found" }, 404));
  return { app, proxy };
}
