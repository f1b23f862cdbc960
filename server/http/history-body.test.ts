// `GET …/history` streamed a batch at a time (ADR 0117) must answer exactly what the whole
// `history` would, for every filter, and end its body early (never answer wrongly) when a
// batch breaks the contract.
import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EventFilter, SessionReader } from "../domain/session-recorder-api";
import { HISTORY_BATCH } from "../ledger/session-reader";
import { frames, openTestSession, type TestSession } from "../testing/ledger-session";
import { historyBody } from "./history-body";
import { createResponder } from "./respond";

let t: TestSession;
let logged: string[];
beforeEach(() => {
  t = openTestSession();
  logged = [];
});
afterEach(() => t.ledger.close());

function serve(reader: SessionReader, query: EventFilter) {
  const app = new Hono();
  const respond = createResponder(true, (line) => logged.push(line));
  app.get("/history", (c) =>
    c.body(historyBody(c, { reader, respond }, t.sessionId, query), 200, {
      "Content-Type": "application/json",
    }),
  );
  return app.request("/history");
}

/** Session-level rows between turns, and one turn longer than several batches. */
function buildSession() {
  const { recorder } = t.ledger;
  const s = t.sessionId;
  recorder.recordState(s, "starting");
  recorder.recordState(s, "active");
  for (let turn = 1; turn <= 4; turn += 1) {
    const turnId = `turn-${turn}`;
    recorder.recordInput(s, turnId, `Task ${turn} — naïve 🚀 "quoted"`);
    const chunks = turn === 2 ? HISTORY_BATCH * 2 + 7 : 3;
    for (let i = 0; i < chunks; i += 1) recorder.recordUpdate(s, turnId, frames.text(`c${i} `));
    if (turn === 3) {
      // Summary chunks are hidden from every read surface; the snapshot rows are not.
      recorder.recordUpdate(s, turnId, frames.compaction("cmp-1", "in_progress"));
      recorder.recordUpdate(s, turnId, frames.chunk("cmp-1", "summary text"));
      recorder.recordUpdate(s, turnId, frames.compaction("cmp-1", "completed"));
    }
    recorder.recordUpdate(s, turnId, frames.usage(1000 * turn, 200_000));
    t.tick();
    recorder.recordState(s, turn % 2 === 0 ? "stopped" : "active");
  }
}

describe("history streamed in batches", () => {
  it.each<[string, Partial<EventFilter>]>([
    ["every group", {}],
    ["the newest two groups", { limit: 2 }],
    ["one turn", { turn_id: "turn-2" }],
    ["one type", { type: "session.state" }],
    ["after a sequence", { after_sequence: 900 }],
    ["since a time", { since: "2026-01-01T00:00:02.000Z" }],
    ["a turn that does not exist", { turn_id: "nope" }],
  ])(
    "when asked for %s, then the body is byte for byte the whole answer's JSON",
    async (_name, filter) => {
      buildSession();
      const query: EventFilter = { limit: 200, ...filter };
      const response = await serve(t.ledger.reader, query);
      expect(response.headers.get("content-type")).toBe("application/json");
      const text = await response.text();
      expect(text).toBe(JSON.stringify(t.ledger.reader.history(t.sessionId, query)));
      expect(logged).toEqual([]);
    },
  );

  it("when the long turn is read, then no read takes more than one batch of rows", async () => {
    buildSession();
    const reads: number[] = [];
    const reader: SessionReader = {
      ...t.ledger.reader,
      historyGroupEvents: (...args) => {
        const batch = t.ledger.reader.historyGroupEvents(...args);
        reads.push(batch.length);
        return batch;
      },
    };
    const text = await (await serve(reader, { limit: 200 })).text();
    const turn2 = (
      JSON.parse(text) as { history: { turn_id: string; events: unknown[] }[] }
    ).history.find((group) => group.turn_id === "turn-2");
    expect(turn2?.events.length).toBeGreaterThan(HISTORY_BATCH * 2);
    expect(Math.max(...reads)).toBe(HISTORY_BATCH);
    expect(reads.filter((n) => n === HISTORY_BATCH)).toHaveLength(2);
  });

  it("when a batch breaks the contract, then the breach is logged and the body ends unparsable", async () => {
    buildSession();
    const reader: SessionReader = {
      ...t.ledger.reader,
      historyGroupEvents: (...args) =>
        t.ledger.reader.historyGroupEvents(...args).map((event) => ({ ...event, sequence: -1 })),
    };
    const response = await serve(reader, { limit: 200 });
    await expect(response.text().then((text) => JSON.parse(text))).rejects.toThrow();
    expect(logged.join("\n")).toMatch(/GET \/history: response breaks the contract/);
  });

  it("when the session has no rows, then the answer is an empty history", async () => {
    expect(await (await serve(t.ledger.reader, { limit: 200 })).text()).toBe('{"history":[]}');
  });
});
