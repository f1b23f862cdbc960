// Workspaces, sessions and turns (CompozyOS `internal/api/httpapi/session_routes.go`):
// parse with the contract → call the host → send.
import type { Hono } from "hono";
import {
  CLIENT_ID_HEADER,
  CompactAccepted,
  CompactBody,
  DaemonCancelResult,
  DaemonPromptResultEnvelope,
  PromptBody,
  promptText,
  SessionCommands,
} from "../../src/contract/commands";
import {
  CreateSessionBody,
  DaemonSessionEnvelope,
  DaemonSessionList,
  DaemonWorkspaceList,
  RenameSessionBody,
  SessionDetailQuery,
  SessionListQuery,
} from "../../src/contract/session";
import { commandsRevision, type SessionHost } from "../acp/session-host";
import { cleanDisplayText } from "../domain/display-text";
import type { RequestedBy, SessionStore } from "../domain/session-recorder-api";
import { invalidRequest, notFound } from "./api-error";
import { NoQuery, parseJsonBody, parseQuery } from "./request-parsing";
import type { Responder } from "./respond";
import { pageOf, selectSessions, selectsInMemory, withHealth } from "./session-catalog-query";

const DEFAULT_PAGE = 50;
export const EmptyBody = CompactBody;

/** Attribution of Compact now (October release): not authentication. */
export function requestedByOf(
  clientId: string | undefined,
  userAgent: string | undefined,
): RequestedBy {
  if (clientId?.startsWith("web-")) return "web";
  if (userAgent?.startsWith("tideline-cli") || userAgent?.startsWith("compozy-cli")) return "cli";
  return "http";
}

/**
 * The session list cursor: opaque to clients (base64url of the next offset into the
 * filtered, newest-first list), refused when it is not one this daemon wrote.
 */
export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString("base64url");
}

export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  let offset: unknown;
  try {
    offset = (JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { o?: unknown }).o;
  } catch {
    offset = undefined;
  }
  if (typeof offset !== "number" || !Number.isSafeInteger(offset) || offset < 0) {
    throw invalidRequest("invalid cursor", { cursor: "unknown cursor" });
  }
  return offset;
}

export function mountSessionRoutes(
  app: Hono,
  deps: { host: SessionHost; store: SessionStore; respond: Responder },
): void {
  const { host, store, respond } = deps;
  const SESSION = "/api/workspaces/:ws/sessions/:id";

  /** `workspace` is a workspace id or its root path; without one, the only workspace. */
  function resolveWorkspace(idOrPath: string | undefined): string {
    const workspaces = store.listWorkspaces();
    if (idOrPath === undefined) {
      const only = workspaces.length === 1 ? workspaces[0] : undefined;
      if (only === undefined)
        throw invalidRequest("workspace is required", { workspace: "required" });
      return only.id;
    }
    const found = workspaces.find((w) => w.id === idOrPath || w.root_dir === idOrPath);
    if (found === undefined) throw notFound("workspace");
    return found.id;
  }

  app.get("/api/workspaces", (c) => {
    parseQuery(c, NoQuery);
    const workspaces = store.listWorkspaces().map((w) => ({ ...w, add_dirs: [] }));
    return respond(c, DaemonWorkspaceList, { workspaces });
  });

  app.get("/api/sessions", (c) => {
    const query = parseQuery(c, SessionListQuery);
    const limit = query.limit ?? DEFAULT_PAGE;
    const offset = decodeCursor(query.cursor);
    const workspace = query.workspace?.trim() ?? "";
    const filter = {
      workspaceId: workspace === "" ? undefined : resolveWorkspace(workspace),
      state: query.state,
      agentName: query.agent?.trim() || undefined,
      archive: query.archive,
    };
    // The sidebar's and the CLI's queries are paged in SQL (ADR 0140); CompozyOS's search,
    // attention and sort parameters still select among every session's view.
    const { sessions: page, total } = selectsInMemory(query)
      ? pageOf(selectSessions(host.listSessions(filter), query), offset, limit)
      : host.listPage(filter, { offset, limit });
    const sessions = page.map((session) => withHealth(session, query.include_health));
    const hasMore = offset + limit < total;
    return respond(c, DaemonSessionList, {
      sessions,
      page: {
        has_more: hasMore,
        limit,
        ...(hasMore ? { next_cursor: encodeCursor(offset + limit) } : {}),
        total,
      },
    });
  });

  app.post("/api/sessions", async (c) => {
    const body = await parseJsonBody(c, CreateSessionBody);
    const workspaceId = resolveWorkspace(body.workspace ?? body.workspace_path);
    const session = host.createSession(workspaceId, {
      agentName: body.agent_name,
      name: body.name === undefined ? undefined : displayName(body.name),
      historyScope: body.history_scope,
    });
    return respond(c, DaemonSessionEnvelope, { session }, 201);
  });

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

  app.get(`${SESSION}/commands`, (c) => {
    const session = host.getSession(c.req.param("id"), c.req.param("ws"));
    parseQuery(c, NoQuery);
    const busy = session.activity !== undefined;
    const commands = session.available_commands.map((command) => ({
      id: `agent:${command.name}`,
      canonical_token: `/${command.name}`,
      // CompozyOS's agent descriptor (internal/command/catalog.go agentDescriptor).
      display_name: `/${command.name}`,
      description: command.description,
      lane: "agent",
      source: { kind: "acp", id: session.agent_name, scope: "session" },
      placements: ["standalone"],
      ...(command.input ? { input_hint: command.input.hint } : {}),
      available: session.state === "active" && !busy,
      ...(session.state !== "active"
        ? { unavailable_reason: "session is not active" }
        : busy
          ? { unavailable_reason: "session is busy" }
          : {}),
    }));
    return respond(c, SessionCommands, {
      commands,
      revision: commandsRevision(session.available_commands),
    });
  });

  app.post(`${SESSION}/prompt`, async (c) => {
    host.getSession(c.req.param("id"), c.req.param("ws"));
    const body = await parseJsonBody(c, PromptBody);
    const answer = host.prompt(c.req.param("id"), c.req.param("ws"), {
      text: promptText(body),
      messageId: body.message_id,
      idempotencyKey: body.idempotency_key,
      mode: body.mode,
      expectedTurnId: body.expected_turn_id,
      requestedBy: requestedByOf(c.req.header(CLIENT_ID_HEADER), c.req.header("user-agent")),
    });
    return respond(c, DaemonPromptResultEnvelope, { prompt: answer.prompt }, answer.status);
  });

  app.post(`${SESSION}/prompt/cancel`, async (c) => {
    host.getSession(c.req.param("id"), c.req.param("ws"));
    await parseJsonBody(c, EmptyBody);
    const result = await host.cancel(c.req.param("id"), c.req.param("ws"));
    return respond(c, DaemonCancelResult, result);
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

/** A name as stored: controls and bidi overrides removed; nothing printable left is a 400. */
function displayName(name: string): string {
  const clean = cleanDisplayText(name);
  if (clean === "") throw invalidRequest("name has no printable characters", { name: "empty" });
  return clean;
}
