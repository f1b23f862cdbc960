// Workspaces, sessions and turns: parse with the contract → call the host → send.
import type { Hono } from "hono";
import {
  CancelAccepted,
  CLIENT_ID_HEADER,
  CompactAccepted,
  CompactBody,
  PromptAccepted,
  PromptBody,
} from "../../src/contract/commands";
import {
  CreateSessionBody,
  SessionEnvelope,
  SessionList,
  SessionListQuery,
  WorkspaceList,
} from "../../src/contract/session";
import type { SessionHost } from "../acp/session-host";
import type { RequestedBy, SessionStore } from "../domain/session-recorder-api";
import { invalidRequest, notFound } from "./api-error";
import { NoQuery, parseJsonBody, parseQuery } from "./request-parsing";
import type { Responder } from "./respond";

const DEFAULT_PAGE = 100;
export const EmptyBody = CompactBody;

/** Attribution of Compact now (wire-contract.md): not authentication. */
export function requestedByOf(
  clientId: string | undefined,
  userAgent: string | undefined,
): RequestedBy {
  if (clientId?.startsWith("web-")) return "web";
  if (userAgent?.startsWith("tideline-cli") || userAgent?.startsWith("compozy-cli")) return "cli";
  return "http";
}

/** The session list cursor: an opaque offset into the filtered, newest-first list. */
function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const offset = /^o(\d{1,9})$/.exec(cursor)?.[1];
  if (offset === undefined) throw invalidRequest("invalid cursor", { cursor: "unknown cursor" });
  return Number(offset);
}

export function mountSessionRoutes(
  app: Hono,
  deps: { host: SessionHost; store: SessionStore; respond: Responder },
): void {
  const { host, store, respond } = deps;
  const SESSION = "/api/workspaces/:ws/sessions/:id";

  app.get("/api/workspaces", (c) => {
    parseQuery(c, NoQuery);
    return respond(c, WorkspaceList, { workspaces: store.listWorkspaces() });
  });

  app.get("/api/sessions", (c) => {
    const query = parseQuery(c, SessionListQuery);
    const limit = query.limit ?? DEFAULT_PAGE;
    const offset = decodeCursor(query.cursor);
    const all = host.listSessions({
      ...(query.workspace === undefined ? {} : { workspaceId: query.workspace }),
      ...(query.state === undefined ? {} : { state: query.state }),
    });
    const sessions = all.slice(offset, offset + limit);
    const hasMore = offset + limit < all.length;
    return respond(c, SessionList, {
      sessions,
      page: {
        has_more: hasMore,
        limit,
        ...(hasMore ? { next_cursor: `o${offset + limit}` } : {}),
        total: all.length,
      },
    });
  });

  app.post("/api/workspaces/:ws/sessions", async (c) => {
    const body = await parseJsonBody(c, CreateSessionBody);
    const session = host.createSession(c.req.param("ws"), body);
    return respond(c, SessionEnvelope, { session }, 201);
  });

  app.get(SESSION, (c) => {
    const session = host.getSession(c.req.param("id"), c.req.param("ws"));
    parseQuery(c, NoQuery);
    return respond(c, SessionEnvelope, { session });
  });

  app.post(`${SESSION}/start`, async (c) => {
    await parseJsonBody(c, EmptyBody);
    const session = host.startSession(c.req.param("id"), c.req.param("ws"));
    return respond(c, SessionEnvelope, { session }, 202);
  });

  app.post(`${SESSION}/stop`, async (c) => {
    await parseJsonBody(c, EmptyBody);
    const session = host.stopSession(c.req.param("id"), c.req.param("ws"));
    return respond(c, SessionEnvelope, { session }, 202);
  });

  app.post(`${SESSION}/prompt`, async (c) => {
    const body = await parseJsonBody(c, PromptBody);
    const accepted = host.prompt(c.req.param("id"), c.req.param("ws"), body.text);
    return respond(
      c,
      PromptAccepted,
      { session_id: accepted.sessionId, prompt_id: accepted.turnId, status: "accepted" },
      202,
    );
  });

  app.post(`${SESSION}/cancel`, async (c) => {
    await parseJsonBody(c, EmptyBody);
    const accepted = await host.cancel(c.req.param("id"), c.req.param("ws"));
    return respond(
      c,
      CancelAccepted,
      { session_id: accepted.sessionId, prompt_id: accepted.turnId },
      202,
    );
  });

  app.post(`${SESSION}/compact`, async (c) => {
    // 404 comes before a bad body: the refusal order of the contract starts with it.
    if (host.findSession(c.req.param("id"))?.workspace_id !== c.req.param("ws")) {
      throw notFound("session");
    }
    await parseJsonBody(c, CompactBody);
    const accepted = host.compact(
      c.req.param("id"),
      c.req.param("ws"),
      requestedByOf(c.req.header(CLIENT_ID_HEADER), c.req.header("user-agent")),
    );
    return respond(
      c,
      CompactAccepted,
      {
        session_id: accepted.sessionId,
        prompt_id: accepted.turnId,
        command: accepted.command,
        status: "accepted",
      },
      202,
    );
  });
}
