// The stream's incremental tail reads (ADR 0118) must give exactly what a page's full read
// gives, after every frame: through segments that grow in place, new segments, folds (a
// part kind changes), a second message, and two sessions streaming at once.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { frames, openTestSession, type TestSession } from "../testing/ledger-session";

let t: TestSession;
beforeEach(() => {
  t = openTestSession();
});
afterEach(() => t.ledger.close());

function expectSameAsPage(sessionId: string) {
  const page = t.ledger.reader.transcriptPage(sessionId, { limit: 1000 });
  const changed = t.ledger.reader.entriesChangedAfter(sessionId, 0);
  expect(changed).toEqual(page.entries);
}

describe("the live stream's tails", () => {
  it("when a message streams through growing and new segments and folds, then every delta equals the page", () => {
    const { recorder } = t.ledger;
    const s = t.sessionId;
    recorder.recordInput(s, "turn-1", "go");
    const piece = (i: number) => `${"é🚀x".repeat(300 + (i % 7) * 200)}|${i}\n`;
    for (let i = 0; i < 40; i += 1) {
      recorder.recordUpdate(s, "turn-1", frames.text(piece(i)));
      expectSameAsPage(s);
    }
    // A thought folds the text tail into the message; then the text streams again.
    recorder.recordUpdate(s, "turn-1", frames.thought("thinking"));
    expectSameAsPage(s);
    for (let i = 0; i < 10; i += 1) {
      recorder.recordUpdate(s, "turn-1", frames.thought(piece(i)));
      expectSameAsPage(s);
    }
    recorder.recordUpdate(s, "turn-1", frames.text("after"));
    expectSameAsPage(s);
    // The next turn's message: another entry streams.
    recorder.recordInput(s, "turn-2", "again");
    for (let i = 0; i < 10; i += 1) {
      recorder.recordUpdate(s, "turn-2", frames.text(piece(i)));
      expectSameAsPage(s);
    }
  });

  it("when two sessions stream at once, then neither reads the other's tail", () => {
    const workspace = t.ledger.store.ensureWorkspace("/work/other", "other");
    const other = t.ledger.store.createSession({ workspaceId: workspace.id, agentName: "demo" });
    const { recorder } = t.ledger;
    recorder.recordInput(t.sessionId, "a-1", "go");
    recorder.recordInput(other.id, "b-1", "go");
    for (let i = 0; i < 20; i += 1) {
      recorder.recordUpdate(t.sessionId, "a-1", frames.text(`A${i} ${"a".repeat(900)}`));
      recorder.recordUpdate(other.id, "b-1", frames.text(`B${i} ${"b".repeat(1700)}`));
      expectSameAsPage(t.sessionId);
      expectSameAsPage(other.id);
    }
  });
});
