// Workspaces and the session list (CompozyOS `GET /api/workspaces`, `GET|POST
// /api/sessions`): a workspace named by id or root path, the list paged by an opaque
// cursor, and a new session created in its workspace.
import type { Hono } from "hono";
import {
  CreateSessionBody,
  DaemonSessionEnvelope,
  DaemonSessionList,
  DaemonWorkspaceList,
  SessionListQuery,
} from "../../src/contract/session";
import type { SessionHost } from "../acp/session-host";
import type { SessionStore } from "../domain/session-recorder-api";
import { invalidRequest, notFound } from "./api-error";
import { NoQuery, parseJsonBody, parseQuery } from "./request-parsing";
import type { Responder } from "./respond";
import { pageOf, selectSessions, selectsInMemory, withHealth } from "./session-catalog-query";
import { displayName } from "./session-request";

const DEFAULT_PAGE = 50;

type ListRouteDeps = { host: SessionHost; store: SessionStore; respond: Responder };

/**
 * The session list cursor: opaque to clients (base64url of the next offset into the
 * filtered, newest-first list), refused when it is not one this daemon wrote.
 */
function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString("base64url");
}

function decodeCursor(cursor: string | undefined): number {
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

/** `workspace` is a workspace id or its root path; without one, the only workspace. */
function resolveWorkspace(store: SessionStore, idOrPath: string | undefined): string {
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

function mountSessionList(app: Hono, { host, store, respond }: ListRouteDeps): void {
  app.get("/api/sessions", (c) => {
    const query = parseQuery(c, SessionListQuery);
    const limit = query.limit ?? DEFAULT_PAGE;
    const offset = decodeCursor(query.cursor);
    const workspace = query.workspace?.trim() ?? "";
    const filter = {
      workspaceId: workspace === "" ? undefined : resolveWorkspace(store, workspace),
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
}

export function mountSessionListRoutes(app: Hono, deps: ListRouteDeps): void {
  const { host, store, respond } = deps;

  app.get("/api/workspaces", (c) => {
    parseQuery(c, NoQuery);
    const workspaces = store.listWorkspaces().map((w) => ({ ...w, add_dirs: [] }));
    return respond(c, DaemonWorkspaceList, { workspaces });
  });

  mountSessionList(app, deps);

  app.post("/api/sessions", async (c) => {
    const body = await parseJsonBody(c, CreateSessionBody);
    const workspaceId = resolveWorkspace(store, body.workspace ?? body.workspace_path);
    const session = host.createSession(workspaceId, {
      agentName: body.agent_name,
      name: body.name === undefined ? undefined : displayName(body.name),
      historyScope: body.history_scope,
    });
    return respond(c, DaemonSessionEnvelope, { session }, 201);
  });
}
