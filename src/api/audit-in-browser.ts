// The compaction audit computed in the browser, for a daemon without the endpoint
// (CompozyOS): reads the session's transcript pages and pins, cuts out the span the
// compaction replaced (and the previous one's, for "what this one lost"), and runs the
// same pure `src/audit/` module the reference daemon runs. Framework-free: it runs in the
// audit worker (never on the page's main thread), or inline where there is no Worker.

import { auditCompaction } from "../audit/audit";
import type { AuditedCompaction, AuditInput, CompactionAudit } from "../audit/types";
import { asJsonObject, type JsonObject } from "../contract/json-value";
import { PinList } from "../contract/pins";
import { compactionOf, type Entry, TranscriptPage } from "../contract/transcript";
import { z } from "../contract/zod";
import { LenientEntries } from "./lenient-entries";

export type BrowserAuditRequest = {
  /** The daemon's base URL ("" for the page's own origin) and the bearer token, if any. */
  base: string;
  token: string | undefined;
  /** `/api/workspaces/{ws}/sessions/{id}`, already encoded. */
  sessionPath: string;
  sessionId: string;
  compactionId: string;
};

const PAGE_LIMIT = 1000;
/** A session longer than this many pages is cut at the newest ones (a runaway loop guard). */
const MAX_PAGES = 500;

const LenientPage = z.extend(TranscriptPage, { entries: LenientEntries });

async function getJson<S extends z.ZodMiniType>(
  request: BrowserAuditRequest,
  path: string,
  schema: S,
  signal?: AbortSignal,
): Promise<z.infer<S> | undefined> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (request.token) headers.Authorization = `Bearer ${request.token}`;
  const url = new URL(`${request.base}${path}`, globalThis.location?.href ?? "http://localhost/");
  const response = await fetch(url, { headers, signal: signal ?? null });
  if (response.status === 404 || response.status === 405) return undefined;
  if (!response.ok) throw new Error(`The daemon answered ${response.status} for ${path}.`);
  const parsed = schema.safeParse(await response.json());
  if (!parsed.success) throw new Error(`Unexpected response from ${path}.`);
  return parsed.data;
}

/** Every entry of the session, oldest first (pages are read newest first). */
async function allEntries(request: BrowserAuditRequest, signal?: AbortSignal): Promise<Entry[]> {
  const pages: Entry[][] = [];
  let before: number | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const query = `?limit=${PAGE_LIMIT}${before === undefined ? "" : `&before_sequence=${before}`}`;
    const data = await getJson(
      request,
      `${request.sessionPath}/transcript${query}`,
      LenientPage,
      signal,
    );
    if (data === undefined) throw new Error("The daemon has no transcript for this session.");
    pages.unshift(data.entries);
    if (!data.has_older || data.next_before_sequence === undefined) break;
    before = data.next_before_sequence;
  }
  return pages.flat();
}

function metaOf(entry: Entry): JsonObject {
  return asJsonObject(entry.message.metadata) ?? {};
}

/** Turn id → its 1-based number, in the order the person's turns began. */
function turnNumbersOf(entries: readonly Entry[]): Map<string, number> {
  const numbers = new Map<string, number>();
  for (const entry of entries) {
    const turnId = metaOf(entry).turn_id;
    if (entry.message.role !== "user" || metaOf(entry).maintenance === true) continue;
    if (typeof turnId === "string" && turnId !== "" && !numbers.has(turnId)) {
      numbers.set(turnId, numbers.size + 1);
    }
  }
  return numbers;
}

/**
 * The audit's input from a whole transcript: a completed compaction's span runs from the
 * previous completed compaction's entry (or the start) to its own entry. A failed or
 * cancelled compaction replaced nothing, so it is no boundary.
 */
function auditInputOf(
  sessionId: string,
  entries: readonly Entry[],
  compactionId: string,
  pinnedEntryIds: readonly string[],
): AuditInput | undefined {
  const boundaries: { index: number; compaction: AuditedCompaction }[] = [];
  for (const [index, entry] of entries.entries()) {
    const item = compactionOf(entry);
    if (item?.status !== "completed") continue;
    boundaries.push({ index, compaction: { item, entry_id: entry.message.id } });
    if (item.compaction_id === compactionId) break;
  }
  const own = boundaries.at(-1);
  if (own?.compaction.item.compaction_id !== compactionId) return undefined;
  const previous = boundaries.at(-2);
  const before = boundaries.at(-3);
  const spanEntries = entries.slice(previous === undefined ? 0 : previous.index + 1, own.index);
  const numbers = turnNumbersOf(entries);
  const pinned = new Set(pinnedEntryIds);
  return {
    session_id: sessionId,
    entries: spanEntries,
    compaction: own.compaction,
    previous:
      previous === undefined
        ? undefined
        : {
            compaction: previous.compaction,
            entries: entries.slice(before === undefined ? 0 : before.index + 1, previous.index),
          },
    turn_numbers: numbers,
    pinned_entry_ids: pinnedEntryIds,
    // Pinned messages from before the span are checked against every later summary too.
    pinned_entries: entries
      .slice(0, previous === undefined ? 0 : previous.index)
      .filter((entry) => pinned.has(entry.message.id)),
  };
}

export async function auditInBrowser(
  request: BrowserAuditRequest,
  signal?: AbortSignal,
): Promise<CompactionAudit> {
  const [entries, pins] = await Promise.all([
    allEntries(request, signal),
    getJson(request, `${request.sessionPath}/pins`, PinList, signal),
  ]);
  const pinned = (pins?.pins ?? []).map((pin) => pin.entry_id);
  const input = auditInputOf(request.sessionId, entries, request.compactionId, pinned);
  if (input === undefined) throw new Error("This compaction is not in the session's transcript.");
  return auditCompaction(input);
}
