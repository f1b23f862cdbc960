// The read models of one session: transcript pages, raw history and events, usage. Each
// is one `SessionReader` call (O(page) on the ledger's projections); history, whose
// answer can be the whole session, is streamed in batches.
import type { Hono } from "hono";
import { DaemonEventList, EVENTS_DEFAULT_LIMIT, EventsQuery } from "../../src/contract/history";
import {
  DaemonTranscriptPage,
  TRANSCRIPT_DEFAULT_LIMIT,
  TranscriptQuery,
} from "../../src/contract/transcript";
import { DaemonUsageEnvelope, UsageTurns } from "../../src/contract/usage";
import type { SessionReader, SessionStore } from "../domain/session-recorder-api";
import { notFound } from "./api-error";
import { historyBody } from "./history-body";
import { NoQuery, parseQuery } from "./request-parsing";
import type { Responder } from "./respond";

export function mountReadRoutes(
  app: Hono,
  deps: { store: SessionStore; reader: SessionReader; respond: Responder },
): void {
  const { store, reader, respond } = deps;
  const SESSION = "/api/workspaces/:ws/sessions/:id";

  function sessionId(ws: string, id: string): string {
    if (store.getSession(id)?.workspace_id !== ws) throw notFound("session");
    return id;
  }

  app.get(`${SESSION}/transcript`, (c) => {
    const id = sessionId(c.req.param("ws"), c.req.param("id"));
    const query = parseQuery(c, TranscriptQuery);
    // Spliced from the stored message JSON (no parse→stringify per entry); validated
    // against the strict schema when validation is on, as `respond` does.
    const json = reader.transcriptPageJson(id, {
      limit: query.limit ?? TRANSCRIPT_DEFAULT_LIMIT,
      ...(query.before_sequence === undefined ? {} : { beforeSequence: query.before_sequence }),
    });
    return respond.json(c, DaemonTranscriptPage, json);
  });

  app.get(`${SESSION}/history`, (c) => {
    const id = sessionId(c.req.param("ws"), c.req.param("id"));
    const query = parseQuery(c, EventsQuery);
    // Streamed a batch at a time: a whole session's history is never held (ADR 0117).
    const body = historyBody(c, deps, id, {
      ...query,
      limit: query.limit ?? EVENTS_DEFAULT_LIMIT,
    });
    return c.body(body, 200, { "Content-Type": "application/json" });
  });

  app.get(`${SESSION}/events`, (c) => {
    const id = sessionId(c.req.param("ws"), c.req.param("id"));
    const query = parseQuery(c, EventsQuery);
    return respond(
      c,
      DaemonEventList,
      reader.events(id, { ...query, limit: query.limit ?? EVENTS_DEFAULT_LIMIT }),
    );
  });

  app.get(`${SESSION}/usage`, (c) => {
    const id = sessionId(c.req.param("ws"), c.req.param("id"));
    parseQuery(c, NoQuery);
    return respond(c, DaemonUsageEnvelope, { usage: reader.usage(id) });
  });

  app.get(`${SESSION}/usage/turns`, (c) => {
    const id = sessionId(c.req.param("ws"), c.req.param("id"));
    parseQuery(c, NoQuery);
    return respond(c, UsageTurns, reader.usageTurns(id));
  });
}
