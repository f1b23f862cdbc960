// Transcript search, a Tideline extension (ADR 0230; docs/contract.md "Search"): one
// session's matches for the find bar, and the best hits across a workspace for the
// sidebar. Both read the FTS5 index; `q` is parsed into words here and never reaches
// SQLite as query syntax.
import type { Hono } from "hono";
import {
  SESSION_SEARCH_DEFAULT_LIMIT,
  SessionSearchQuery,
  SessionSearchResult,
  searchWords,
  WORKSPACE_SEARCH_DEFAULT_LIMIT,
  WorkspaceSearchQuery,
  WorkspaceSearchResult,
} from "../../src/contract/search";
import type { SessionStore, TranscriptSearch } from "../domain/session-recorder-api";
import { notFound } from "./api-error";
import { parseQuery } from "./request-parsing";
import type { Responder } from "./respond";

export function mountSearchRoutes(
  app: Hono,
  deps: { store: SessionStore; search: TranscriptSearch; respond: Responder },
): void {
  const { store, search, respond } = deps;

  app.get("/api/workspaces/:ws/sessions/:id/search", (c) => {
    const id = c.req.param("id");
    if (store.getSession(id)?.workspace_id !== c.req.param("ws")) throw notFound("session");
    const query = parseQuery(c, SessionSearchQuery);
    const found = search.session(
      id,
      searchWords(query.q),
      query.limit ?? SESSION_SEARCH_DEFAULT_LIMIT,
    );
    return respond(c, SessionSearchResult, { q: query.q, ...found });
  });

  app.get("/api/workspaces/:ws/search", (c) => {
    const ws = c.req.param("ws");
    if (store.getWorkspace(ws) === undefined) throw notFound("workspace");
    const query = parseQuery(c, WorkspaceSearchQuery);
    const hits = search.workspace(
      ws,
      searchWords(query.q),
      query.limit ?? WORKSPACE_SEARCH_DEFAULT_LIMIT,
    );
    return respond(c, WorkspaceSearchResult, { q: query.q, hits });
  });
}
