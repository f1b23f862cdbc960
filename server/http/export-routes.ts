// `GET …/sessions/{id}/export?format=md|json|jsonl` (a Tideline extension, ADR 0240): the
// session as a file to keep. The body is pulled a batch at a time, so an export of 100,000
// entries holds one batch, never the session; a client that stops reading stops the reads.
import type { Context, Hono } from "hono";
import {
  EXPORT_JSON_FORMAT,
  EXPORT_MEDIA,
  type ExportFormat,
  ExportQuery,
  exportFileName,
} from "../../src/contract/export";
import type { ExportReader } from "../domain/export-reader-api";
import type { SessionReader, SessionRecord, SessionStore } from "../domain/session-recorder-api";
import { createMarkdownWriter, markdownHeader } from "../domain/transcript-markdown";
import { notFound } from "./api-error";
import { pulledBody } from "./pulled-body";
import { parseQuery } from "./request-parsing";

/** Entries or rows read per pull: small enough to hold, large enough to keep reads cheap. */
export const EXPORT_BATCH = 500;

type Deps = { store: SessionStore; reader: SessionReader; exports: ExportReader };

export function mountExportRoutes(app: Hono, deps: Deps): void {
  app.get("/api/workspaces/:ws/sessions/:id/export", (c) => {
    const session = deps.store.getSession(c.req.param("id"));
    if (session?.workspace_id !== c.req.param("ws")) throw notFound("session");
    const format = parseQuery(c, ExportQuery).format ?? "md";
    return sendExport(
      c,
      exportFileName(session, format),
      format,
      exportBody(deps, session, format),
    );
  });
}

function sendExport(
  c: Context,
  fileName: string,
  format: ExportFormat,
  pieces: () => string | undefined,
) {
  return c.body(pulledBody(pieces), 200, {
    "Content-Type": EXPORT_MEDIA[format].type,
    "Content-Disposition": `attachment; filename="${fileName}"`,
    "Cache-Control": "no-store",
  });
}

/** The export's text, piece by piece: the next piece, or undefined once it is complete. */
function exportBody(
  deps: Deps,
  session: SessionRecord,
  format: ExportFormat,
  exportedAt = new Date().toISOString(),
): () => string | undefined {
  const { exports } = deps;
  let after = 0;
  let sent = 0;
  const markdown = createMarkdownWriter();
  let started = false;
  let done = false;
  return () => {
    if (done) return undefined;
    const opening = started ? undefined : opener(deps, session, format, exportedAt);
    started = true;
    let text = opening ?? "";
    if (format === "jsonl") {
      const lines = exports.rowLines(session.id, after, EXPORT_BATCH);
      for (const row of lines) text += `${row.line}\n`;
      after = lines.at(-1)?.sequence ?? after;
      if (lines.length < EXPORT_BATCH) done = true;
      return text;
    }
    if (format === "json") {
      const batch = exports.entriesJson(session.id, after, EXPORT_BATCH);
      for (const entry of batch) {
        text += `${sent === 0 ? "" : ","}${entry.json}`;
        sent += 1;
      }
      after = batch.at(-1)?.startSequence ?? after;
      if (batch.length < EXPORT_BATCH) {
        done = true;
        text += "]}";
      }
      return text;
    }
    const batch = exports.entries(session.id, after, EXPORT_BATCH);
    for (const entry of batch) text += markdown.entry(entry);
    after = batch.at(-1)?.start_sequence ?? after;
    if (batch.length < EXPORT_BATCH) done = true;
    return text;
  };
}

function opener(
  { reader }: Deps,
  session: SessionRecord,
  format: ExportFormat,
  exportedAt: string,
): string | undefined {
  if (format === "jsonl") return undefined;
  const described = {
    id: session.id,
    workspace_id: session.workspace_id,
    name: session.name ?? null,
    agent_name: session.agent_name,
    state: reader.lastState(session.id).state,
    created_at: session.created_at,
  };
  if (format === "md") return markdownHeader(described, exportedAt);
  return `{"format":${JSON.stringify(EXPORT_JSON_FORMAT)},"exported_at":${JSON.stringify(exportedAt)},"session":${JSON.stringify(described)},"entries":[`;
}
