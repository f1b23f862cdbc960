// `GET …/sessions/{id}/export?format=md|json|jsonl` (a Tideline extension, ADR 0240): a
// whole session as a file. Markdown is a readable transcript; JSON the transcript projection,
// oldest entry first; JSONL the ledger's rows, one per line. Every format is streamed.
import { z } from "./zod";

export const EXPORT_FORMATS = ["md", "json", "jsonl"] as const;
export const ExportFormat = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof ExportFormat>;

export const ExportQuery = z.strictObject({ format: z.optional(ExportFormat) });

/** The media type and file extension each format is sent with. */
export const EXPORT_MEDIA: Readonly<Record<ExportFormat, { type: string; extension: string }>> = {
  md: { type: "text/markdown; charset=utf-8", extension: "md" },
  json: { type: "application/json", extension: "json" },
  jsonl: { type: "application/x-ndjson", extension: "jsonl" },
};

/** The `format` field of a JSON export, so a reader knows what it holds. */
export const EXPORT_JSON_FORMAT = "tideline.transcript.v1";

/** One line of a JSONL export: a ledger row, its content as the stored JSON. */
export const ExportedRow = z.object({
  sequence: z.int().check(z.positive()),
  turn_id: z.nullable(z.string()),
  type: z.string().check(z.minLength(1)),
  content: z.unknown(),
  created_at: z.string(),
});
export type ExportedRow = z.infer<typeof ExportedRow>;

/** A file name for a session's export: its name made safe, or its id. */
export function exportFileName(
  session: { id: string; name?: string | null },
  format: ExportFormat,
) {
  const base = (session.name ?? "")
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 80);
  return `${base === "" ? session.id : base}.${EXPORT_MEDIA[format].extension}`;
}
