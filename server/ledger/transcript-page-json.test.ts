// `transcriptPageJson` splices stored message JSON instead of parse→stringify; it must give
// exactly the bytes `JSON.stringify(transcriptPage(…))` gives, on every page of a session
// with tails, tools, compactions, events and non-ASCII text.
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { frames, openTestSession, type TestSession, tempDatabase } from "../testing/ledger-session";

let t: TestSession;
let db: ReturnType<typeof tempDatabase> | undefined;
afterEach(() => {
  t?.ledger.close();
  db?.cleanup();
  db = undefined;
});

const UNICODE =
  'naïve café — 日本語 🚀👩‍💻 "quoted" \\ back\\slash \n\t\u2028\u2029 \u0001 \ud800 end';

function buildSession(): void {
  const { recorder } = t.ledger;
  const s = t.sessionId;
  recorder.recordState(s, "starting");
  recorder.recordState(s, "active", "ready ✓");
  recorder.recordUpdate(s, null, {
    sessionUpdate: "available_commands_update",
    availableCommands: [{ name: "compact", description: "Compact ✂", input: { hint: "why" } }],
  });
  for (let turn = 1; turn <= 6; turn += 1) {
    const turnId = `turn-${turn}`;
    recorder.recordInput(s, turnId, `Task ${turn}: ${UNICODE}`);
    for (let i = 0; i < 5; i += 1)
      recorder.recordUpdate(s, turnId, frames.thought(`think ${i} ${UNICODE} `));
    recorder.recordUpdate(
      s,
      turnId,
      frames.tool(`t${turn}`, {
        rawInput: { path: "a.ts", 2: "n", b: [1, 2.5, -0, 1e21, null, true] },
      }),
    );
    recorder.recordUpdate(s, turnId, frames.toolUpdate(`t${turn}`, { status: "in_progress" }));
    recorder.recordUpdate(
      s,
      turnId,
      frames.toolUpdate(
        `t${turn}`,
        turn % 2 === 0
          ? { status: "failed", rawOutput: { error: `no ${UNICODE}` } }
          : {
              status: "completed",
              content: [{ type: "content", content: { type: "text", text: UNICODE } }],
            },
      ),
    );
    // A long message: more than the inline size, so it gets a tail; stopping at different
    // lengths leaves some entries with a pending tail and some freshly folded.
    const chunks = 40 + turn * 17;
    for (let i = 0; i < chunks; i += 1) {
      recorder.recordUpdate(s, turnId, frames.text(`chunk ${i} ${UNICODE} `, `m-${turn}`));
    }
    recorder.recordUpdate(s, turnId, frames.text("short reply without id "));
    recorder.recordUpdate(
      s,
      turnId,
      frames.usage(1000 * turn, 200_000, { amount: turn / 3, currency: "USD" }),
    );
    if (turn % 2 === 0) {
      const id = `cmp-${turn}`;
      recorder.recordUpdate(s, turnId, frames.compaction(id, "in_progress"));
      for (let i = 0; i < 4; i += 1)
        recorder.recordUpdate(
          s,
          turnId,
          frames.chunk(id, `kept ${UNICODE} sk-abcdefghijklmnopqrstuvwx `),
        );
      recorder.recordUpdate(
        s,
        turnId,
        frames.compaction(
          id,
          turn === 4 ? "failed" : "completed",
          turn === 4 ? { error: "boom ☠" } : {},
        ),
      );
    }
    recorder.recordInvalidFrame(s, turnId, "{not json", "bad JSON ✗");
    recorder.recordPromptCompleted(s, turnId, { stop_reason: "end_turn", input_tokens: 10 });
  }
  // The last message stays open with a pending tail.
  for (let i = 0; i < 90; i += 1)
    recorder.recordUpdate(s, "turn-7", frames.text(`open ${i} ${UNICODE} `, "m-open"));
}

describe("transcriptPageJson", () => {
  it("when a session has tails, tools, compactions, events and unicode, then every page is byte-identical to JSON.stringify(transcriptPage)", () => {
    db = tempDatabase();
    t = openTestSession(db.path);
    buildSession();
    const { reader } = t.ledger;
    const s = t.sessionId;
    const max = reader.maxSequence(s);
    // The fixture really has what it claims: several entries with a pending tail.
    const look = new Database(db.path, { readonly: true });
    const tails = look
      .prepare("SELECT COUNT(DISTINCT entry_key) AS n FROM entry_tail_segments")
      .get() as {
      n: number;
    };
    look.close();
    expect(tails.n).toBeGreaterThan(3);
    let pages = 0;
    for (const limit of [1, 2, 7, 50, 200, 1000]) {
      for (const before of [
        undefined,
        1,
        2,
        3,
        ...Array.from({ length: 40 }, (_, i) => Math.ceil(((i + 1) * max) / 40)),
        max + 1,
      ]) {
        const query = before === undefined ? { limit } : { limit, beforeSequence: before };
        expect(reader.transcriptPageJson(s, query)).toBe(
          JSON.stringify(reader.transcriptPage(s, query)),
        );
        pages += 1;
      }
    }
    expect(pages).toBeGreaterThan(200);
  });

  it("when the session is empty, then the JSON page matches too", () => {
    t = openTestSession();
    const { reader } = t.ledger;
    expect(reader.transcriptPageJson(t.sessionId, { limit: 50 })).toBe(
      JSON.stringify(reader.transcriptPage(t.sessionId, { limit: 50 })),
    );
  });
});
