// createApp(deps) → the Hono app. It never listens: main.ts serves it, tests call
// `app.request()` or serve it on port 0.
import { Hono } from "hono";
import type { Health } from "../src/contract/health";
import { ApiError, sendError } from "./http/api-error";
import { hostGuard, type SecurityOptions, tokenGuard, writeGuard } from "./http/security";
import { mountStaticSite, SPA_HEADERS } from "./http/static-site";

export type AppDeps = {
  version: string;
  security: SecurityOptions;
  /** The built SPA; absent in API-only tests. */
  distDir?: string;
  log?: (line: string) => void;
};

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  const log = deps.log ?? ((line: string) => console.error(line));

  app.use("*", hostGuard(deps.security));
  app.use("/api/*", tokenGuard(deps.security));
  app.use("/api/*", writeGuard(deps.security));
  app.use("/api/*", async (c, next) => {
    await next();
    c.res.headers.set("X-Content-Type-Options", SPA_HEADERS["X-Content-Type-Options"]);
    c.res.headers.set("Cache-Control", "no-store");
  });

  app.get("/api/health", (c) => c.json({ status: "ok", version: deps.version } satisfies Health));

  app.all("/api/*", (c) => sendError(c, new ApiError(404, "not_found", "no such endpoint")));
  if (deps.distDir !== undefined) mountStaticSite(app, deps.distDir);

  app.notFound((c) => sendError(c, new ApiError(404, "not_found", "not found")));
  app.onError((error, c) => {
    if (error instanceof ApiError) return sendError(c, error);
    log(`[http] ${c.req.method} ${c.req.path} failed: ${error.stack ?? String(error)}`);
    return sendError(c, new ApiError(500, "internal", "internal error"));
  });
  return app;
}
