// The read models of one session: transcript pages, raw history and events, usage. Each
// is one `SessionReader` call (O(page) on the ledger's projections).
import type { Hono } from "hono";
import { z } from "zod";
import { EventList, EventsQuery, History, HistoryQuery } from "../../src/contract/history";
import {
  DaemonEntry,
  TRANSCRIPT_DEFAULT_LIMIT,
  TranscriptPage,
  TranscriptQuery,
} from "../../src/contract/transcript";
import { UsageEnvelope, UsageTurns } from "../../src/contract/usage";
import type { SessionReader, SessionStore } from "../domain/session-recorder-api";
import { notFound } from "./api-error";
import { NoQuery, parseQuery } from "./request-parsing";
import type { Responder } from "./respond";

/** What the daemon promises to send: every part a known one. */
export const DaemonTranscriptPage = TranscriptPage.extend({ entries: z.array(DaemonEntry) });

const DEFAULT_EVENTS_LIMIT = 100;

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
    const query = parseQuery(c, HistoryQuery);
    return respond(c, History, reader.history(id, query.turn_id));
  });

  app.get(`${SESSION}/events`, (c) => {
    const id = sessionId(c.req.param("ws"), c.req.param("id"));
    const query = parseQuery(c, EventsQuery);
    return respond(
      c,
      EventList,
      reader.events(id, { ...query, limit: query.limit ?? DEFAULT_EVENTS_LIMIT }),
    );
  });

  app.get(`${SESSION}/usage`, (c) => {
    const id = sessionId(c.req.param("ws"), c.req.param("id"));
    parseQuery(c, NoQuery);
    return respond(c, UsageEnvelope, { usage: reader.usage(id) });
  });

  app.get(`${SESSION}/usage/turns`, (c) => {
    const id = sessionId(c.req.param("ws"), c.req.param("id"));
    parseQuery(c, NoQuery);
    return respond(c, UsageTurns, reader.usageTurns(id));
  });
}
