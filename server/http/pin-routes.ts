// Pins (ADR 0165): list, pin and unpin a user message of a session. Parse → settings → send.
import type { Hono } from "hono";
import { PinEntryId, PinEnvelope, PinList } from "../../src/contract/pins";
import type { SessionSettingsStore, SessionStore } from "../domain/session-recorder-api";
import { ApiError, invalidRequest, notFound } from "./api-error";
import { NoQuery, parseQuery } from "./request-parsing";
import type { Responder } from "./respond";

export function mountPinRoutes(
  app: Hono,
  deps: { store: SessionStore; settings: SessionSettingsStore; respond: Responder },
): void {
  const { store, settings, respond } = deps;
  const SESSION = "/api/workspaces/:ws/sessions/:id";

  function sessionId(ws: string, id: string): string {
    if (store.getSession(id)?.workspace_id !== ws) throw notFound("session");
    return id;
  }
  function entryId(raw: string): string {
    const parsed = PinEntryId.safeParse(raw);
    if (!parsed.success) throw invalidRequest("invalid entry id", { entry_id: "not an entry id" });
    return parsed.data;
  }

  app.get(`${SESSION}/pins`, (c) => {
    const id = sessionId(c.req.param("ws"), c.req.param("id"));
    parseQuery(c, NoQuery);
    return respond(c, PinList, { pins: settings.pinsOf(id) });
  });

  app.put(`${SESSION}/pins/:entry`, (c) => {
    const id = sessionId(c.req.param("ws"), c.req.param("id"));
    parseQuery(c, NoQuery);
    const outcome = settings.pin(id, entryId(c.req.param("entry")));
    if (outcome.kind === "unknown_entry") throw notFound("entry");
    if (outcome.kind === "not_a_user_message") {
      throw new ApiError(400, "invalid_request", "only a message of the person can be pinned", {
        entry_id: "not a user message",
      });
    }
    return respond(c, PinEnvelope, { pin: outcome.pin });
  });

  app.delete(`${SESSION}/pins/:entry`, (c) => {
    const id = sessionId(c.req.param("ws"), c.req.param("id"));
    parseQuery(c, NoQuery);
    // Unpinning what is not pinned is already the wanted state: 204 either way.
    settings.unpin(id, entryId(c.req.param("entry")));
    return c.body(null, 204);
  });
}
