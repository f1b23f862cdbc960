// What a real agent adds to the sessions API (ADRs 0091, 0094): approvals, modes, config
// options, and the configured agents for the New session picker.
import type { Hono } from "hono";
import {
  AgentListQuery,
  DaemonAgentList,
  SetConfigBody,
  SetModeBody,
} from "../../src/contract/agent-session";
import { ApproveBody, ApproveResult, CLIENT_ID_HEADER } from "../../src/contract/commands";
import { SessionEnvelope } from "../../src/contract/session";
import type { SessionHost } from "../acp/session-host";
import { notFound } from "./api-error";
import { parseJsonBody, parseQuery } from "./request-parsing";
import type { Responder } from "./respond";
import { requestedByOf } from "./session-request";

export function mountAgentRoutes(app: Hono, deps: { host: SessionHost; respond: Responder }) {
  const { host, respond } = deps;
  const SESSION = "/api/workspaces/:ws/sessions/:id";

  /** 404 before a bad body, as the other session writes do. */
  function requireSession(ws: string, id: string) {
    if (host.findSession(id)?.workspace_id !== ws) throw notFound("session");
  }

  app.get("/api/agents", (c) => {
    // CompozyOS resolves `workspace` to find workspace-local agents; here every agent is
    // the daemon's own, whatever the workspace.
    parseQuery(c, AgentListQuery);
    return respond(c, DaemonAgentList, host.agents());
  });

  app.post(`${SESSION}/approve`, async (c) => {
    requireSession(c.req.param("ws"), c.req.param("id"));
    const body = await parseJsonBody(c, ApproveBody);
    const result = host.approve(
      c.req.param("id"),
      c.req.param("ws"),
      body,
      requestedByOf(c.req.header(CLIENT_ID_HEADER), c.req.header("user-agent")),
    );
    return respond(c, ApproveResult, result);
  });

  app.post(`${SESSION}/mode`, async (c) => {
    requireSession(c.req.param("ws"), c.req.param("id"));
    const body = await parseJsonBody(c, SetModeBody);
    const session = await host.setMode(c.req.param("id"), c.req.param("ws"), body.mode_id);
    return respond(c, SessionEnvelope, { session });
  });

  app.post(`${SESSION}/config`, async (c) => {
    requireSession(c.req.param("ws"), c.req.param("id"));
    const body = await parseJsonBody(c, SetConfigBody);
    const session = await host.setConfigOption(
      c.req.param("id"),
      c.req.param("ws"),
      body.config_id,
      body.value,
    );
    return respond(c, SessionEnvelope, { session });
  });
}
