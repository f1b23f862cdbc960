// `GET …/sessions/{id}/compactions/{compaction_id}/audit` (a Tideline extension, ADR 0156):
// what a compaction's summary kept and dropped of the turns it replaced, computed by the
// shared `src/audit/` module over the span read from the ledger.
import type { Hono } from "hono";
import { CompactionAudit } from "../../src/contract/compaction-audit";
import type { AuditReader, SessionStore } from "../domain/session-recorder-api";
import { notFound } from "./api-error";
import { NoQuery, parseQuery } from "./request-parsing";
import type { Responder } from "./respond";

export function mountAuditRoutes(
  app: Hono,
  deps: {
    store: SessionStore;
    audits: AuditReader;
    /** The session's pinned entry ids (the pins store, issue 20). */
    pinsOf: (sessionId: string) => readonly string[];
    respond: Responder;
  },
): void {
  const { store, audits, pinsOf, respond } = deps;
  app.get("/api/workspaces/:ws/sessions/:id/compactions/:compactionId/audit", (c) => {
    const id = c.req.param("id");
    if (store.getSession(id)?.workspace_id !== c.req.param("ws")) throw notFound("session");
    parseQuery(c, NoQuery);
    const audit = audits.audit(id, c.req.param("compactionId"), pinsOf(id));
    if (audit === undefined) throw notFound("compaction");
    return respond(c, CompactionAudit, audit);
  });
}
