import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { foldToolCall } from "../domain/tool-call-fold";
import { eventMessage, foldCompaction } from "../domain/transcript-fold";
import { parseLikeCompozyWeb } from "../testing/compozy-web";
import { tempDatabase } from "../testing/ledger-session";
import { compozyWebShapes, MIGRATIONS, migrate } from "./migrations";
import { openLedger } from "./open-ledger";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const OLD_ENTRIES: [string, string, string][] = [
  [
    "event-1",
    "event",
    '{"id":"event-1","role":"system","parts":[{"type":"data-compozy-event","data":{"type":"session.state","state":"active"}}]}',
  ],
  [
    "user-2",
    "user",
    '{"id":"user-2","role":"user","parts":[{"type":"text","text":"hi","state":"done"}],"metadata":{"message_id":"msg-web-1"}}',
  ],
  [
    "tool-t1",
    "tool",
    '{"id":"tool-t1","role":"assistant","parts":[{"type":"tool-read","toolCallId":"t1","state":"output-available"}]}',
  ],
  [
    "tool-t2",
    "tool",
    '{"id":"tool-t2","role":"assistant","parts":[{"type":"tool-execute","toolCallId":"t2","state":"input-available"}]}',
  ],
  [
    "compaction-c1",
    "compaction",
    '{"id":"compaction-c1","role":"system","parts":[{"type":"data-compozy-compaction","id":"c1","data":{"kind":"compaction","compaction_id":"c1","status":"completed","started_at":"2026-01-01T00:00:00.000Z"}}]}',
  ],
];

describe("the ledger's transcript in CompozyOS's web's shapes", () => {
  it("when a ledger written before it is opened, then its stored entries are rewritten so CompozyOS's parser accepts them", async () => {
    const file = tempDatabase();
    cleanups.push(file.cleanup);
    const old = new Database(file.path);
    migrate(old, MIGRATIONS.indexOf(compozyWebShapes));
    old.exec(`
      INSERT INTO workspaces VALUES ('ws_1', 'p', '/p', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
      INSERT INTO sessions (id, workspace_id, agent_name, created_at, updated_at)
        VALUES ('ses_1', 'ws_1', 'demo', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
    `);
    const insert = old.prepare(
      "INSERT INTO entries (session_id, entry_key, kind, turn_id, start_sequence, sequence, message) VALUES ('ses_1', ?, ?, NULL, ?, ?, ?)",
    );
    OLD_ENTRIES.forEach(([key, kind, message], index) => {
      insert.run(key, kind, index + 1, index + 1, message);
    });
    const before = old
      .prepare("SELECT message FROM entries ORDER BY start_sequence")
      .pluck()
      .all() as string[];
    await expect(parseLikeCompozyWeb(before.map((m) => JSON.parse(m)))).rejects.toThrow();
    old.close();

    const ledger = openLedger(file.path);
    cleanups.unshift(() => ledger.close());
    const messages = ledger.reader
      .transcriptPage("ses_1", { limit: 100 })
      .entries.map((entry) => entry.message);
    expect(messages.map((m) => [m.id, m.role])).toEqual([
      ["event-1", "assistant"],
      ["msg-web-1", "user"],
      ["tool-t1", "assistant"],
      ["tool-t2", "assistant"],
      ["compaction-c1", "assistant"],
    ]);
    expect(messages[2]?.parts[0]).toMatchObject({ input: {}, output: {} });
    expect(messages[3]?.parts[0]).toMatchObject({ input: {} });
    expect(messages[3]?.parts[0]).not.toHaveProperty("output");
    expect(await parseLikeCompozyWeb(messages)).toBe(5);
  });
});

describe("new entries in CompozyOS's web's shapes", () => {
  it("when a tool call runs and finishes without saying its input or output, then its part carries {} for both, as CompozyOS's projection writes", async () => {
    const running = foldToolCall("tool-x", undefined, { toolCallId: "x", status: "in_progress" });
    expect(running.parts[0]).toMatchObject({ state: "input-available", input: {} });
    const done = foldToolCall("tool-x", running, { toolCallId: "x", status: "completed" });
    expect(done.parts[0]).toMatchObject({ state: "output-available", input: {}, output: {} });
    const pending = foldToolCall("tool-y", undefined, { toolCallId: "y", status: "pending" });
    expect(pending.parts[0]).not.toHaveProperty("input");
    const reported = foldToolCall("tool-z", undefined, {
      toolCallId: "z",
      status: "completed",
      rawInput: { path: "a.ts" },
      rawOutput: "ok",
    });
    expect(reported.parts[0]).toMatchObject({
      input: { path: "a.ts" },
      output: { raw_output: "ok" },
    });
    expect(await parseLikeCompozyWeb([running, done, pending, reported])).toBe(4);
  });

  it("when a compaction or a state line is folded, then it is an assistant-role marker CompozyOS's parser accepts", async () => {
    const compaction = foldCompaction(
      "compaction-c1",
      undefined,
      { compaction_id: "c1", status: "in_progress" } as Parameters<typeof foldCompaction>[2],
      "2026-01-01T00:00:00.000Z",
    );
    const state = eventMessage("event-1", "session.state", { state: "active" });
    expect([compaction.role, state.role]).toEqual(["assistant", "assistant"]);
    expect(await parseLikeCompozyWeb([compaction, state])).toBe(2);
  });
});
