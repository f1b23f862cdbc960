// One session as a record (CompozyOS `/api/workspaces/:ws/sessions/:id`): read, rename,
// delete, stop its agent, archive and unarchive. A write names the session before its
// body is read, so an unknown session is a 404 whatever the body.
import type { Hono } from "hono";
import {
  DaemonSessionEnvelope,
  RenameSessionBody,
  SessionDetailQuery,
} from "../../src/contract/session";
import type { SessionHost } from "../acp/session-host";
import { NoQuery, parseJsonBody, parseQuery } from "./request-parsing";
import type { Responder } from "./respond";
import { withHealth } from "./session-catalog-query";
import { displayName, EmptyBody, SESSION } from "./session-request";

export function mountSessionRecordRoutes(
  app: Hono,
  deps: { host: SessionHost; respond: Responder },
): void {
  const { host, respond } = deps;

  app.get(SESSION, (c) => {
    const session = host.getSession(c.req.param("id"), c.req.param("ws"));
    const query = parseQuery(c, SessionDetailQuery);
    return respond(c, DaemonSessionEnvelope, {
      session: withHealth(session, query.include_health),
    });
  });

  app.patch(SESSION, async (c) => {
    host.getSession(c.req.param("id"), c.req.param("ws"));
    const body = await parseJsonBody(c, RenameSessionBody);
    const session = host.renameSession(
      c.req.param("id"),
      c.req.param("ws"),
      displayName(body.name),
    );
    return respond(c, DaemonSessionEnvelope, { session });
  });

  app.delete(SESSION, (c) => {
    parseQuery(c, NoQuery);
    host.deleteSession(c.req.param("id"), c.req.param("ws"));
    return c.body(null, 204);
  });

  app.post(`${SESSION}/stop`, async (c) => {
    host.getSession(c.req.param("id"), c.req.param("ws"));
    await parseJsonBody(c, EmptyBody);
    host.stopSession(c.req.param("id"), c.req.param("ws"));
    return c.body(null, 204);
  });

  for (const [path, archived] of [
    ["archive", true],
    ["unarchive", false],
  ] as const) {
    app.post(`${SESSION}/${path}`, async (c) => {
      host.getSession(c.req.param("id"), c.req.param("ws"));
      await parseJsonBody(c, EmptyBody);
      const session = host.archiveSession(c.req.param("id"), c.req.param("ws"), archived);
      return respond(c, DaemonSessionEnvelope, { session });
    });
  }
}
