// The read side of transcript search (ADR 0230): the FTS5 index answers with entries and a
// snippet each. The user's words are never FTS5 syntax: each is a folded run of letters
// and digits, quoted into one phrase whose last word is a prefix, so `"`, `NEAR(` or `OR`
// are only words (or nothing) to it.
import type Database from "better-sqlite3";
import type { SnippetPiece, WorkspaceSearchHit } from "../../src/contract/search";
import type { TranscriptSearch } from "../domain/session-recorder-api";
import {
  MARK_CLOSE,
  MARK_OPEN,
  PIECE_BITS,
  pieceIdOf,
  SEQUENCE_BITS,
  SESSION_BITS,
  sessionRowids,
} from "./search-index";

/** `"w1 w2 w3" *`: the words as one phrase, the last one a prefix. */
function phraseQuery(words: readonly string[]): string {
  return `"${words.join(" ")}" *`;
}

/** Splits FTS5's marked snippet into plain pieces and matched ones. */
function snippetPieces(marked: string): SnippetPiece[] {
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
  const sessionNumber = db
    .prepare<[string], number>("SELECT num FROM search_sessions WHERE session_id = ?")
    .pluck(true);
  // The session's rowid range in rowid order is its matches in transcript order (ADR 0232):
  // FTS5 walks its own doclist, with no lookup per match; only the start sequence is read.
  const sessionStarts = db
    .prepare<[string, bigint, bigint], number>(
      `SELECT (rowid >> ${PIECE_BITS}) & ${2 ** SEQUENCE_BITS - 1} FROM entry_search
       WHERE entry_search MATCH ? AND rowid >= ? AND rowid < ? ORDER BY rowid`,
    )
    .pluck(true);
  // The key of a matched entry: its first piece at or after (session, start, piece 0).
  const keyAt = db
    .prepare<[bigint], string>(
      "SELECT entry_key FROM search_pieces WHERE id >= ? ORDER BY id LIMIT 1",
    )
    .pluck(true);
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
      const number = sessionNumber.get(sessionId);
      // No number, or one past its field: nothing of the session is in the index.
      if (number === undefined || number >= 2 ** SESSION_BITS) return { total: 0, matches: [] };
      const [first, end] = sessionRowids(number);
      // Several pieces of one entry may match: they are adjacent, so each entry counts once.
      let total = 0;
      let last = -1;
      const matches: { entry_id: string; start_sequence: number }[] = [];
      for (const start of sessionStarts.all(phraseQuery(words), first, end)) {
        if (start === last) continue;
        last = start;
        total += 1;
        if (matches.length < limit) {
          const key = keyAt.get(pieceIdOf(number, start, 0) as bigint) as string;
          matches.push({ entry_id: key, start_sequence: start });
        }
      }
      return { total, matches };
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
