// Continue and fork (ADR 0087): the preview of the replay, and the two ways to start a new
// session from a stored one. Parse with the contract → call the host → send.
import type { Hono } from "hono";
import { DerivePreview, DerivePreviewQuery, DeriveSessionBody } from "../../src/contract/derive";
import { SessionEnvelope } from "../../src/contract/session";
import type { SessionHost } from "../acp/session-host";
import { parseJsonBody, parseQuery } from "./request-parsing";
import type { Responder } from "./respond";

export function mountDeriveRoutes(
  app: Hono,
  deps: { host: SessionHost; respond: Responder },
): void {
  const { host, respond } = deps;
  const SESSION = "/api/workspaces/:ws/sessions/:id";

  app.get(`${SESSION}/derive/preview`, (c) => {
    host.getSession(c.req.param("id"), c.req.param("ws"));
    const query = parseQuery(c, DerivePreviewQuery);
    const replay = host.derivePreview(c.req.param("id"), c.req.param("ws"), query.session_tools);
    return respond(c, DerivePreview, {
      message_count: replay.messageCount,
      replay_bytes: replay.bytes,
      truncated: replay.truncated,
      omitted_count: replay.omittedCount,
    });
  });

  for (const kind of ["continue", "fork"] as const) {
    app.post(`${SESSION}/${kind}`, async (c) => {
      host.getSession(c.req.param("id"), c.req.param("ws"));
      const body = await parseJsonBody(c, DeriveSessionBody);
      const session = host.deriveSession(c.req.param("id"), c.req.param("ws"), kind, {
        agent: body.agent_name,
        name: body.name,
        sessionTools: body.session_tools,
      });
      return respond(c, SessionEnvelope, { session }, 201);
    });
  }
}
