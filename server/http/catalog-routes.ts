// The session catalog by id alone (CompozyOS `internal/api/httpapi/session_routes.go`):
// `GET /api/sessions/catalog-stream`, `GET /api/sessions/{session_id}` and its `/owner`,
// which need no workspace (the CLI's way to a session it knows by id, and a deep link's).
import type { Hono } from "hono";
import {
  DaemonSessionEnvelope,
  SessionDetailQuery,
  SessionOwner,
} from "../../src/contract/session";
import type { SessionHost } from "../acp/session-host";
import { notFound } from "./api-error";
import type { CatalogStream } from "./catalog-stream";
import { parseQuery } from "./request-parsing";
import type { Responder } from "./respond";
import { withHealth } from "./session-catalog-query";

export function mountCatalogRoutes(
  app: Hono,
  deps: { host: SessionHost; catalog: CatalogStream; respond: Responder },
): void {
  const { host, catalog, respond } = deps;

  // Before the by-id route, which would otherwise take "catalog-stream" for an id.
  app.get("/api/sessions/catalog-stream", (c) => catalog.handle(c));

  app.get("/api/sessions/:id", (c) => {
    const query = parseQuery(c, SessionDetailQuery);
    const session = host.findSession(c.req.param("id"));
    if (session === undefined) throw notFound("session");
    return respond(c, DaemonSessionEnvelope, {
      session: withHealth(session, query.include_health),
    });
  });

  app.get("/api/sessions/:id/owner", (c) => {
    const owner = host.sessionOwner(c.req.param("id"));
    if (owner === undefined) throw notFound("session");
    return respond(c, SessionOwner, owner);
  });
}
