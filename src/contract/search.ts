// Transcript search, a Tideline extension (CompozyOS has no transcript search; ADR 0230):
// what text of an entry is searchable, how a query is read, and the two answers. The
// matching rule is shared by the daemon's FTS5 index and the browser's fallback over loaded
// entries, so both find the same entries: the query's words, in order, as a phrase of whole
// words whose last one may be a prefix, case- and accent-insensitively.

import { Id, queryInt, Sequence } from "./primitives";
import type { Message } from "./transcript";
import { z } from "./zod";

/** A query longer than this is refused: nobody types it, and it only costs. */
export const SEARCH_QUERY_MAX_CHARS = 200;
/** At most this many words are searched for; more are refused with the query. */
const SEARCH_MAX_WORDS = 16;
/** An entry's searchable text is cut at this many characters (a huge tool output). */
const SEARCHABLE_MAX_CHARS = 64_000;

export const SESSION_SEARCH_DEFAULT_LIMIT = 1000;
export const SESSION_SEARCH_MAX_LIMIT = 5000;
export const WORKSPACE_SEARCH_DEFAULT_LIMIT = 30;
const WORKSPACE_SEARCH_MAX_LIMIT = 100;

// SQLite's unicode61 tokenizer: letters, numbers and private-use characters make words.
const WORD = /[\p{L}\p{N}\p{Co}]+/gu;

/** Lower case without accents, as unicode61 with remove_diacritics 2 folds a word. */
export function foldWord(word: string): string {
  return word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** The query's words, folded; `[]` when it has none (only punctuation or quotes). */
export function searchWords(query: string): string[] {
  return (query.match(WORD) ?? []).map(foldWord).filter((word) => word !== "");
}

function stringsIn(value: unknown, out: string[], depth: number): void {
  if (typeof value === "string") out.push(value);
  else if (depth > 6 || value === null || typeof value !== "object") return;
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, out, depth + 1);
  else for (const item of Object.values(value)) stringsIn(item, out, depth + 1);
}

/**
 * The searchable text of a message: user and agent text, tool titles, output and errors,
 * compaction summaries and errors, event and permission lines. Reasoning is left out: it
 * is folded away on screen, so a match there would land on nothing visible.
 */
export function searchableText(message: Pick<Message, "parts">): string {
  const out: string[] = [];
  for (const part of message.parts as readonly { type: string; [key: string]: unknown }[]) {
    if (part.type === "text") stringsIn(part.text, out, 0);
    else if (part.type === "dynamic-tool" || part.type.startsWith("tool-")) {
      stringsIn(part.title, out, 0);
      stringsIn(part.output, out, 0);
      stringsIn(part.errorText, out, 0);
    } else if (part.type === "data-compozy-compaction") {
      const data = part.data as { summary?: unknown; error?: unknown } | undefined;
      stringsIn(data?.summary, out, 0);
      stringsIn(data?.error, out, 0);
    } else if (part.type === "data-compozy-event" || part.type === "data-compozy-permission") {
      const data = part.data as { text?: unknown; title?: unknown; error?: unknown } | undefined;
      stringsIn([data?.title, data?.text, data?.error], out, 0);
    }
  }
  return out.join("\n").slice(0, SEARCHABLE_MAX_CHARS);
}

/** The matching rule itself, on plain text: the daemon's index answers the same. */
export function textMatches(text: string, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  const tokens = (text.match(WORD) ?? []).map(foldWord);
  const last = words.length - 1;
  for (let start = 0; start + last < tokens.length; start += 1) {
    let index = 0;
    while (index < last && tokens[start + index] === words[index]) index += 1;
    if (index === last && tokens[start + last]?.startsWith(words[last] as string)) return true;
  }
  return false;
}

const Query = z
  .string()
  .check(z.maxLength(SEARCH_QUERY_MAX_CHARS, `at most ${SEARCH_QUERY_MAX_CHARS} characters`))
  .check(z.refine((q) => q.trim() !== "", "must not be empty"))
  .check(z.refine((q) => searchWords(q).length > 0, "must contain a letter or a digit"))
  .check(
    z.refine((q) => searchWords(q).length <= SEARCH_MAX_WORDS, `at most ${SEARCH_MAX_WORDS} words`),
  );

export const SessionSearchQuery = z.strictObject({
  q: Query,
  limit: z.optional(queryInt(1, SESSION_SEARCH_MAX_LIMIT)),
});
export type SessionSearchQuery = z.infer<typeof SessionSearchQuery>;

export const WorkspaceSearchQuery = z.strictObject({
  q: Query,
  limit: z.optional(queryInt(1, WORKSPACE_SEARCH_MAX_LIMIT)),
});
export type WorkspaceSearchQuery = z.infer<typeof WorkspaceSearchQuery>;

/** A snippet of the matched text: plain pieces and the matched words, in order. */
export const SnippetPiece = z.object({ text: z.string(), match: z.boolean() });
export type SnippetPiece = z.infer<typeof SnippetPiece>;

/** Where a match is: the find bar jumps there and highlights the words itself. */
export const SessionSearchMatch = z.object({
  entry_id: Id,
  start_sequence: Sequence,
});
export type SessionSearchMatch = z.infer<typeof SessionSearchMatch>;

/** `GET …/sessions/{id}/search?q=`: the matching entries, oldest first, and their count. */
export const SessionSearchResult = z.object({
  q: z.string(),
  total: z.int().check(z.nonnegative()),
  matches: z.array(SessionSearchMatch),
});
export type SessionSearchResult = z.infer<typeof SessionSearchResult>;

export const WorkspaceSearchHit = z.extend(SessionSearchMatch, {
  snippet: z.array(SnippetPiece),
  session_id: Id,
  session_name: z.nullable(z.string()),
});
export type WorkspaceSearchHit = z.infer<typeof WorkspaceSearchHit>;

/** `GET /api/workspaces/{id}/search?q=`: the best matches across the workspace's sessions. */
export const WorkspaceSearchResult = z.object({
  q: z.string(),
  hits: z.array(WorkspaceSearchHit),
});
export type WorkspaceSearchResult = z.infer<typeof WorkspaceSearchResult>;
