// The read side of transcript search (ADR 0230): the FTS5 index answers with entries and a
// snippet each. The user's words are never FTS5 syntax: each is a folded run of letters
// and digits, quoted into one phrase whose last word is a prefix, so `"`, `NEAR(` or `OR`
// are only words (or nothing) to it.
import type Database from "better-sqlite3";
import type { SnippetPiece, WorkspaceSearchHit } from "../../src/contract/search";
import type { TranscriptSearch } from "../domain/session-recorder-api";
import { MARK_CLOSE, MARK_OPEN } from "./search-index";

/** `"w1 w2 w3" *`: the words as one phrase, the last one a prefix. */
export function phraseQuery(words: readonly string[]): string {
  return `"${words.join(" ")}" *`;
}

/** Splits FTS5's marked snippet into plain pieces and matched ones. */
export function snippetPieces(marked: string): SnippetPiece[] {
  const pieces: SnippetPiece[] = [];
  let match = false;
  for (const text of marked.split(new RegExp(`[${MARK_OPEN}${MARK_CLOSE}]`))) {
    if (text !== "") pieces.push({ text: text.replace(/\s+/g, " "), match });
    match = !match;
  }
  return pieces;
}

type Row = { entry_key: string; start_sequence: number; snip: string };
const SNIPPET = `snippet(entry_search, 0, char(2), char(3), '…', 12)`;

export function createTranscriptSearch(db: Database.Database): TranscriptSearch {
  // Keys only: the find bar needs where the matches are, not their text.
  // Pieces carry the entry's start sequence: the index and one rowid lookup per match.
  // CROSS JOIN keeps the index as the outer loop: the planner otherwise walks every piece
  // of the session and asks FTS5 about each (O(session), not O(matches)).
  const sessionKeys = db
    .prepare<[string, string], [string, number]>(
      `SELECT p.entry_key, p.start_sequence FROM entry_search
       CROSS JOIN search_pieces p ON p.id = entry_search.rowid
       WHERE entry_search MATCH ? AND p.session_id = ?`,
    )
    .raw(true);
  const workspaceRows = db.prepare<
    [string, string, number],
    Row & { session_id: string; session_name: string | null }
  >(
    `SELECT p.session_id, s.name AS session_name, p.entry_key, p.start_sequence,
            ${SNIPPET} AS snip
     FROM entry_search
     CROSS JOIN search_pieces p ON p.id = entry_search.rowid
     CROSS JOIN sessions s ON s.id = p.session_id
     WHERE entry_search MATCH ? AND s.workspace_id = ?
     ORDER BY rank LIMIT ?`,
  );

  return {
    session(sessionId, words, limit) {
      // Several pieces of one entry may match: each entry once, oldest first.
      const starts = new Map<number, string>();
      for (const [key, start] of sessionKeys.all(phraseQuery(words), sessionId)) {
        starts.set(start, key);
      }
      const ordered = [...starts.keys()].sort((a, b) => a - b);
      const matches = ordered
        .slice(0, limit)
        .map((start) => ({ entry_id: starts.get(start) as string, start_sequence: start }));
      return { total: ordered.length, matches };
    },
    workspace(workspaceId, words, limit) {
      const seen = new Set<string>();
      const hits: WorkspaceSearchHit[] = [];
      // Several pieces of one entry may match: asked for more, kept once each.
      for (const row of workspaceRows.all(phraseQuery(words), workspaceId, limit * 2)) {
        const key = `${row.session_id}\u0000${row.entry_key}`;
        if (seen.has(key) || hits.length >= limit) continue;
        seen.add(key);
        hits.push({
          session_id: row.session_id,
          session_name: row.session_name,
          entry_id: row.entry_key,
          start_sequence: row.start_sequence,
          snippet: snippetPieces(row.snip),
        });
      }
      return hits;
    },
  };
}
