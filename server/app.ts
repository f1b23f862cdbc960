// createApp(deps) → the Hono app. It never listens: main.ts serves it, tests call
// `app.request()` or serve it on port 0.
import { type Context, Hono } from "hono";
import { GATEWAY_TIER_HEADER } from "../src/contract/compozy-surfaces";
import type { Health } from "../src/contract/health";
import type { SessionHost } from "./acp/session-host";
import { SessionRefusal } from "./acp/session-refusal";
import type { Ledger } from "./domain/session-recorder-api";
import { mountAgentRoutes } from "./http/agent-routes";
import { ApiError, sendError } from "./http/api-error";
import { mountAuditRoutes } from "./http/audit-routes";
import { mountCatalogRoutes } from "./http/catalog-routes";
import type { CatalogStream } from "./http/catalog-stream";
import { mountCompozySurfaceRoutes } from "./http/compozy-surface-routes";
import { mountDeriveRoutes } from "./http/derive-routes";
import { mountExportRoutes } from "./http/export-routes";
import { loadFirstScreen } from "./http/first-screen";
import { mountPinRoutes } from "./http/pin-routes";
import { mountQueueRoutes } from "./http/queue-routes";
import { mountReadRoutes } from "./http/read-routes";
import { createResponder } from "./http/respond";
import { mountSearchRoutes } from "./http/search-routes";
import { hostGuard, type SecurityOptions, tokenGuard, writeGuard } from "./http/security";
import { mountSessionRoutes } from "./http/session-routes";
import type { StreamHub } from "./http/session-stream";
import { mountStaticSite, SPA_HEADERS } from "./http/static-site";

export type AppDeps = {
  version: string;
  security: SecurityOptions;
  /** The sessions API; absent only in the bare skeleton. */
  sessions?: { ledger: Ledger; host: SessionHost; streams: StreamHub; catalog?: CatalogStream };
  /** The built SPA; absent in API-only tests. */
  distDir?: string;
  /** Check every answer against its contract schema (dev and tests). */
  validateResponses?: boolean;
  /** When the daemon started, and its `--config` file: facts of `GET /api/status`. */
  startedAt?: Date;
  configFile?: string | undefined;
  log?: (line: string) => void;
};

const REFUSAL_STATUS = {
  not_found: 404,
  invalid_request: 400,
  session_not_promptable: 400,
  session_busy: 409,
  compaction_unsupported: 409,
  session_archived: 409,
  session_not_stopped: 409,
  prompt_idempotency_conflict: 409,
  session_continued: 409,
  prompt_not_in_progress: 409,
  active_turn_mismatch: 409,
  queue_entry_not_queued: 409,
  session_queue_full: 413,
  permission_resolved: 409,
  permission_ambiguous: 409,
  agent_request_failed: 502,
} as const;

/** The page request's own Host, so the API answers the first screen's reads as the SPA's. */
function hostOf(c: Context): Record<string, string> {
  const host = c.req.header("host");
  return host === undefined ? {} : { host };
}

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  const log = deps.log ?? ((line: string) => console.error(line));

  app.use("*", hostGuard(deps.security));
  app.use("/api/*", tokenGuard(deps.security));
  app.use("/api/*", writeGuard(deps.security));
  app.use("/api/*", async (c, next) => {
    await next();
    c.res.headers.set("X-Content-Type-Options", SPA_HEADERS["X-Content-Type-Options"]);
    if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
    // As CompozyOS's local listener does on every answer; its web reads it before a stream.
    c.res.headers.set(GATEWAY_TIER_HEADER, "local");
  });

  app.get("/api/health", (c) => c.json({ status: "ok", version: deps.version } satisfies Health));

  if (deps.sessions !== undefined) {
    const { ledger, host, streams } = deps.sessions;
    const respond = createResponder(deps.validateResponses ?? true, log);
    mountSessionRoutes(app, { host, store: ledger.store, respond });
    mountQueueRoutes(app, { host, respond });
    mountReadRoutes(app, { store: ledger.store, reader: ledger.reader, respond });
    mountExportRoutes(app, { store: ledger.store, reader: ledger.reader, exports: ledger.exports });
    mountSearchRoutes(app, { store: ledger.store, search: ledger.search, respond });
    const pinsOf = (sessionId: string) => ledger.settings.pinnedEntryIdsOf(sessionId);
    mountAuditRoutes(app, { store: ledger.store, audits: ledger.audits, pinsOf, respond });
    mountAgentRoutes(app, { host, respond });
    mountDeriveRoutes(app, { host, respond });
    mountPinRoutes(app, { store: ledger.store, settings: ledger.settings, respond });
    mountCompozySurfaceRoutes(app, {
      host,
      ledger,
      respond,
      version: deps.version,
      startedAt: deps.startedAt ?? new Date(),
      configFile: deps.configFile,
    });
    // After the other `/api/sessions/…` routes: its `:id` would take their names.
    const { catalog } = deps.sessions;
    if (catalog !== undefined) mountCatalogRoutes(app, { host, catalog, respond });
    app.get("/api/workspaces/:ws/sessions/:id/stream", (c) => streams.handle(c));
  }

  app.all("/api/*", (c) => sendError(c, new ApiError(404, "not_found", "no such endpoint")));
  if (deps.distDir !== undefined) {
    const open = deps.security.token === undefined;
    mountStaticSite(app, deps.distDir, {
      preloadFirstReads: open,
      // The page's own Host, so the API answers these reads as it will answer the SPA's.
      ...(open && deps.sessions !== undefined
        ? {
            firstScreen: (c, ws, id) =>
              loadFirstScreen(
                (path) =>
                  Promise.resolve(
                    app.fetch(new Request(new URL(path, c.req.url), { headers: hostOf(c) })),
                  ),
                ws,
                id,
                log,
              ),
          }
        : {}),
    });
  }

  app.notFound((c) => sendError(c, new ApiError(404, "not_found", "not found")));
  app.onError((error, c) => {
    if (error instanceof ApiError) return sendError(c, error);
    if (error instanceof SessionRefusal) {
      return sendError(
        c,
        new ApiError(REFUSAL_STATUS[error.code], error.code, error.message, error.details),
      );
    }
    log(`[http] ${c.req.method} ${c.req.path} failed: ${error.stack ?? String(error)}`);
    return sendError(c, new ApiError(500, "internal", "internal error"));
  });
  return app;
}
