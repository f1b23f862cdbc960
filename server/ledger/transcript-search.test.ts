// Transcript search against the truth: 50 random sessions written through the recorder
// (short and streamed-long messages, tools, compactions), every query answered by the FTS5
// index compared with a brute-force scan of the transcript with the shared matching rule.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { searchableText, searchWords, textMatches } from "../../src/contract/search";
import type { Ledger } from "../domain/session-recorder-api";
import { frames, openTestSession, tempDatabase } from "../testing/ledger-session";
import { openLedger } from "./open-ledger";
import { PIECE_BITS, pieceIdOf, SEQUENCE_BITS, SESSION_BITS, sessionRowids } from "./search-index";

const VOCABULARY = [
  "ledger",
  "Ledger",
  "compact",
  "compaction",
  "café",
  "naïve",
  "summary",
  "login",
  "bug",
  "fix",
  "v2",
  "2026",
  "don't",
  "src/app.ts",
  "NEAR(",
  '"quoted"',
  "OR",
  "a*b",
  "tool",
  "output",
  "alpha",
  "beta",
  "gamma",
  "delta",
  "ÉTÉ",
  "reply",
  "turn",
  "session",
];

/** Deterministic: the same 50 sessions on every run. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function words(random: () => number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i += 1) {
    out.push(VOCABULARY[Math.floor(random() * VOCABULARY.length)] as string);
  }
  return out.join(random() < 0.2 ? ", " : " ");
}

function writeSession(ledger: Ledger, workspaceId: string, random: () => number): string {
  const { id } = ledger.store.createSession({ workspaceId, agentName: "demo" });
  const { recorder } = ledger;
  const turns = 2 + Math.floor(random() * 6);
  for (let turn = 1; turn <= turns; turn += 1) {
    const turnId = `t${turn}`;
    recorder.recordInput(id, turnId, words(random, 1 + Math.floor(random() * 8)));
    if (random() < 0.3) recorder.recordUpdate(id, turnId, frames.thought(words(random, 5)));
    // A long reply streams into a tail (ADR 0042): chunks of whole words.
    const chunks = random() < 0.25 ? 400 : 1 + Math.floor(random() * 4);
    for (let c = 0; c < chunks; c += 1) {
      recorder.recordUpdate(
        id,
        turnId,
        frames.text(` ${words(random, 1 + Math.floor(random() * 3))}`, `m${turn}`),
      );
    }
    if (random() < 0.5) {
      recorder.recordUpdate(id, turnId, frames.tool(`c${turn}`, { title: words(random, 3) }));
      recorder.recordUpdate(
        id,
        turnId,
        frames.toolUpdate(`c${turn}`, {
          status: "completed",
          rawOutput: { stdout: words(random, 6) },
          content: [{ type: "content", content: { type: "text", text: words(random, 4) } }],
        }),
      );
    }
    if (random() < 0.15) {
      recorder.recordUpdate(
        id,
        turnId,
        frames.compaction(`k${turn}`, "completed", {
          summary: [{ type: "text", text: words(random, 10) }],
        }),
      );
    }
  }
  return id;
}

function bruteForce(ledger: Ledger, sessionId: string, query: string): string[] {
  const wanted = searchWords(query);
  const page = ledger.reader.transcriptPage(sessionId, { limit: 100_000 });
  return page.entries
    .filter((entry) => textMatches(searchableText(entry.message), wanted))
    .map((entry) => entry.message.id);
}

function queriesFor(random: () => number): string[] {
  const picked = Array.from({ length: 6 }, () => words(random, 1 + Math.floor(random() * 2)));
  const prefixes = Array.from({ length: 3 }, () => {
    const word = VOCABULARY[Math.floor(random() * VOCABULARY.length)] as string;
    return word.slice(0, 1 + Math.floor(random() * word.length));
  });
  return [...picked, ...prefixes, "CAFE", "ete", "compact summary", "nowhere-to-be-found"];
}

describe("transcript search", () => {
  it("when 50 random sessions are searched, then the index finds exactly what a brute-force scan finds", () => {
    const t = openTestSession();
    const workspace = t.ledger.store.listWorkspaces()[0];
    if (workspace === undefined) throw new Error("no workspace");
    const random = prng(22);
    const sessions = Array.from({ length: 50 }, () => writeSession(t.ledger, workspace.id, random));
    let compared = 0;
    let nonEmpty = 0;
    for (const sessionId of sessions) {
      for (const query of queriesFor(random)) {
        if (searchWords(query).length === 0) continue;
        const expected = bruteForce(t.ledger, sessionId, query);
        const found = t.ledger.search.session(sessionId, searchWords(query), 100_000);
        expect({ query, ids: found.matches.map((match) => match.entry_id) }).toEqual({
          query,
          ids: expected,
        });
        expect(found.total).toBe(expected.length);
        compared += 1;
        if (expected.length > 0) nonEmpty += 1;
      }
    }
    // The comparison means something: most queries found entries, some found none.
    expect(compared).toBeGreaterThan(500);
    expect(nonEmpty).toBeGreaterThan(compared / 2);
    t.ledger.close();
  });

  it("when the workspace is searched, then hits name their session and mark the words in a snippet", () => {
    const t = openTestSession();
    const workspaceId = t.ledger.store.getSession(t.sessionId)?.workspace_id ?? "";
    t.ledger.store.renameSession(t.sessionId, "Named");
    t.ledger.recorder.recordInput(
      t.sessionId,
      "t1",
      "Please fix the flaky login bug in src/auth.ts",
    );
    const other = t.ledger.store.createSession({ workspaceId, agentName: "demo", name: "Other" });
    t.ledger.recorder.recordInput(other.id, "t1", "Unrelated words only");
    const hits = t.ledger.search.workspace(workspaceId, searchWords("login bu"), 10);
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ session_id: t.sessionId, session_name: "Named" });
    expect(hits[0]?.snippet.filter((piece) => piece.match).map((piece) => piece.text)).toEqual([
      "login bug",
    ]);
    expect(hits[0]?.snippet.map((piece) => piece.text).join("")).toBe(
      "Please fix the flaky login bug in src/auth.ts",
    );
    t.ledger.close();
  });

  it("when a session is deleted, then nothing of it is found any more", () => {
    const t = openTestSession();
    t.ledger.recorder.recordInput(t.sessionId, "t1", "remember the zebra");
    t.ledger.recorder.recordState(t.sessionId, "stopped");
    expect(t.ledger.search.session(t.sessionId, ["zebra"], 10).total).toBe(1);
    t.ledger.store.deleteSession(t.sessionId);
    const workspace = t.ledger.store.listWorkspaces()[0]?.id ?? "";
    expect(t.ledger.search.workspace(workspace, ["zebra"], 10)).toEqual([]);
    t.ledger.close();
  });

  it("when a ledger from before the index is opened, then the migration indexes its entries and tails", () => {
    const db = tempDatabase();
    const t = openTestSession(db.path);
    t.ledger.recorder.recordInput(t.sessionId, "t1", "an old question about penguins");
    for (let c = 0; c < 300; c += 1) {
      t.ledger.recorder.recordUpdate(t.sessionId, "t1", frames.text(` walrus${c}`, "m1"));
    }
    t.ledger.close();
    // Back to the schema before the index, as an older daemon left it.
    const raw = new Database(db.path);
    const version = raw.pragma("user_version", { simple: true }) as number;
    raw.exec("DROP TABLE entry_search; DROP TABLE search_pieces;");
    raw.pragma(`user_version = ${version - 1}`);
    raw.close();
    const reopened = openLedger(db.path);
    expect(reopened.search.session(t.sessionId, ["penguins"], 10).total).toBe(1);
    // The streamed reply's words live in its tail segments until folded.
    expect(reopened.search.session(t.sessionId, ["walrus299"], 10).matches).toEqual([
      { entry_id: "msg-m1", start_sequence: expect.any(Number) },
    ]);
    reopened.close();
    db.cleanup();
  });
  it("when a session has more matches than asked for, then the first ones in transcript order come with the whole count", () => {
    const t = openTestSession();
    for (let turn = 1; turn <= 30; turn += 1) {
      t.ledger.recorder.recordInput(t.sessionId, `t${turn}`, `question ${turn} about otters`);
      // Long replies: tail pieces written after later entries began still sort by entry.
      for (let c = 0; c < 3; c += 1) {
        t.ledger.recorder.recordUpdate(
          t.sessionId,
          `t${turn}`,
          frames.text(` otter${c}`, `m${turn}`),
        );
      }
    }
    const all = t.ledger.search.session(t.sessionId, ["otter"], 1000);
    const firstFive = t.ledger.search.session(t.sessionId, ["otter"], 5);
    expect(all.total).toBe(60);
    expect(firstFive.total).toBe(60);
    expect(firstFive.matches).toEqual(all.matches.slice(0, 5));
    const starts = all.matches.map((match) => match.start_sequence);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(new Set(all.matches.map((match) => match.entry_id)).size).toBe(60);
    t.ledger.close();
  });

  it("when a piece's place is past its field, then it is left out of the index and the transcript keeps it", () => {
    const db = tempDatabase();
    const t = openTestSession(db.path);
    const raw = new Database(db.path);
    // The session number field is full: nothing of this session can be placed.
    raw
      .prepare("INSERT INTO search_sessions (num, session_id) VALUES (?, ?)")
      .run(2 ** SESSION_BITS, t.sessionId);
    raw.close();
    t.ledger.recorder.recordInput(t.sessionId, "t1", "a question about herons");
    expect(t.ledger.search.session(t.sessionId, ["herons"], 10).total).toBe(0);
    const page = t.ledger.reader.transcriptPage(t.sessionId, { limit: 10 });
    expect(page.entries.map((entry) => searchableText(entry.message))).toContain(
      "a question about herons",
    );
    t.ledger.close();
    db.cleanup();
  });

  it("when a ledger with the first index (rowids in insertion order) is opened, then the index is rebuilt in transcript order", () => {
    const db = tempDatabase();
    const t = openTestSession(db.path);
    t.ledger.recorder.recordInput(t.sessionId, "t1", "an old question about lynxes");
    t.ledger.close();
    const raw = new Database(db.path);
    const version = raw.pragma("user_version", { simple: true }) as number;
    raw.exec(`
      DROP TABLE entry_search; DROP TABLE search_pieces; DROP TABLE search_sessions;
      CREATE TABLE search_pieces (
        id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, entry_key TEXT NOT NULL,
        piece INTEGER NOT NULL, start_sequence INTEGER NOT NULL,
        UNIQUE (session_id, entry_key, piece)
      ) STRICT;
      CREATE VIRTUAL TABLE entry_search USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
      INSERT INTO search_pieces VALUES (1, 'stale', 'stale', 0, 1);
      INSERT INTO entry_search (rowid, text) VALUES (1, 'lynxes from a stale row');
    `);
    raw.pragma(`user_version = ${version - 1}`);
    raw.close();
    const reopened = openLedger(db.path);
    const found = reopened.search.session(t.sessionId, ["lynxes"], 10);
    expect(found.total).toBe(1);
    const workspaceId = reopened.store.getSession(t.sessionId)?.workspace_id ?? "";
    expect(reopened.search.workspace(workspaceId, ["lynxes"], 10)).toHaveLength(1);
    reopened.close();
    db.cleanup();
  });

  it("when pieces are placed, then their ids order by session, then entry, then piece, inside int64", () => {
    expect(pieceIdOf(1, 5, 2 ** PIECE_BITS - 1)! < pieceIdOf(1, 6, 0)!).toBe(true);
    expect(pieceIdOf(1, 2 ** SEQUENCE_BITS - 1, 0)! < pieceIdOf(2, 0, 0)!).toBe(true);
    const [first, end] = sessionRowids(7);
    expect(pieceIdOf(7, 0, 0)).toBe(first);
    expect(pieceIdOf(7, 2 ** SEQUENCE_BITS - 1, 2 ** PIECE_BITS - 1)! < end).toBe(true);
    const last = pieceIdOf(2 ** SESSION_BITS - 1, 2 ** SEQUENCE_BITS - 1, 2 ** PIECE_BITS - 1)!;
    expect(last <= 2n ** 63n - 1n).toBe(true);
    expect(pieceIdOf(2 ** SESSION_BITS, 0, 0)).toBeUndefined();
    expect(pieceIdOf(0, 2 ** SEQUENCE_BITS, 0)).toBeUndefined();
    expect(pieceIdOf(0, 0, 2 ** PIECE_BITS)).toBeUndefined();
  });
});
