// The transcript read model (docs/ledger.md §4) as the reader serves it.
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { DaemonEntry, TranscriptPage } from "../../src/contract/transcript";
import { frames, openTestSession, type TestSession, tempDatabase } from "../testing/ledger-session";
import { openLedger } from "./open-ledger";

let t: TestSession;
afterEach(() => t?.ledger.close());

function page(limit = 100, beforeSequence?: number) {
  const result = t.ledger.reader.transcriptPage(
    t.sessionId,
    beforeSequence === undefined ? { limit } : { limit, beforeSequence },
  );
  TranscriptPage.parse(result);
  for (const entry of result.entries) DaemonEntry.parse(entry);
  return result;
}

const texts = () =>
  page().entries.map((entry) => [
    entry.message.id,
    entry.message.parts.map((part) => ("text" in part ? `${part.type}:${part.text}` : part.type)),
  ]);

describe("transcript projection", () => {
  it("when a prompt is sent, then it is a user message; a maintenance one carries metadata", () => {
    t = openTestSession();
    t.ledger.recorder.recordInput(t.sessionId, "turn-1", "Hello");
    t.ledger.recorder.recordCompactionRequested(t.sessionId, "turn-2", {
      command: "compress",
      requested_by: "cli",
    });
    expect(page().entries.map((entry) => entry.message)).toEqual([
      // CompozyOS: user text parts carry no id; the turn is in the metadata.
      {
        id: "user-1",
        role: "user",
        metadata: { turn_id: "turn-1" },
        parts: [{ type: "text", text: "Hello", state: "done" }],
      },
      {
        id: "user-3",
        role: "user",
        metadata: { turn_id: "turn-2", maintenance: true, requested_by: "cli" },
        parts: [{ type: "text", text: "/compress", state: "done" }],
      },
    ]);
  });

  it("when thought and text chunks stream, then one assistant message holds merged reasoning and text parts", () => {
    t = openTestSession();
    for (const frame of [
      frames.thought("Let me "),
      frames.thought("think."),
      frames.text("Done"),
      frames.text("!"),
    ]) {
      t.ledger.recorder.recordUpdate(t.sessionId, "turn-1", frame);
    }
    expect(texts()).toEqual([["asst-1", ["reasoning:Let me think.", "text:Done!"]]]);
    expect(page().entries[0]).toMatchObject({ start_sequence: 1, sequence: 4 });
  });

  it("when chunks carry message ids, then each id is its own message, appended in place", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordUpdate(t.sessionId, "turn-1", frames.text("A1 ", "m-a"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.tool("x"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.text("B1", "m-b"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.text("A2", "m-a"));
    expect(texts()).toEqual([
      ["msg-m-a", ["text:A1 A2"]],
      ["tool-x", ["tool-read"]],
      ["msg-m-b", ["text:B1"]],
    ]);
  });

  it("when chunks without ids follow a tool call or a new turn, then they start a new message", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordUpdate(t.sessionId, "turn-1", frames.text("one"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(10, 100));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.text(" still one"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.tool("x"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.text("two"));
    recorder.recordUpdate(t.sessionId, "turn-2", frames.text("three"));
    expect(texts()).toEqual([
      ["asst-1", ["text:one still one"]],
      ["tool-x", ["tool-read"]],
      ["asst-5", ["text:two"]],
      ["asst-6", ["text:three"]],
    ]);
  });

  it.each([
    ["pending", "input-available"],
    ["in_progress", "input-available"],
    ["completed", "output-available"],
    ["failed", "output-error"],
  ])("when a tool call is %s, then its part state is %s", (status, state) => {
    t = openTestSession();
    t.ledger.recorder.recordUpdate(
      t.sessionId,
      "turn-1",
      frames.tool("x", { rawInput: { path: "a.ts" } }),
    );
    t.ledger.recorder.recordUpdate(
      t.sessionId,
      "turn-1",
      frames.toolUpdate("x", { status, rawOutput: status === "failed" ? "ENOENT" : "file body" }),
    );
    const [entry] = page().entries;
    expect(entry?.message.parts[0]).toMatchObject({
      type: "tool-read",
      toolCallId: "x",
      title: "Tool x",
      state,
      input: { path: "a.ts" },
    });
    if (status === "failed") expect(entry?.message.parts[0]).toMatchObject({ errorText: "ENOENT" });
    expect(entry).toMatchObject({ start_sequence: 1, sequence: 2 });
  });

  it("when a tool update changes title and kind, then the single part is updated in place", () => {
    t = openTestSession();
    t.ledger.recorder.recordUpdate(t.sessionId, "turn-1", frames.tool("x"));
    t.ledger.recorder.recordUpdate(
      t.sessionId,
      "turn-1",
      frames.toolUpdate("x", {
        title: "Run tests",
        kind: "execute",
        content: [{ type: "content", content: { type: "text", text: "ok" } }],
      }),
    );
    expect(page().entries.map((entry) => entry.message.parts)).toEqual([
      [
        {
          type: "tool-execute",
          toolCallId: "x",
          title: "Run tests",
          // Pending and no input yet: CompozyOS's input-streaming.
          state: "input-streaming",
          output: { content: [{ type: "content", content: { type: "text", text: "ok" } }] },
        },
      ],
    ]);
  });

  it("when plan, permission, state, exit and unknown updates arrive, then each is an event entry without an id (a permission its own part)", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordState(t.sessionId, "active");
    recorder.recordUpdate(t.sessionId, "turn-1", {
      sessionUpdate: "plan",
      entries: [{ content: "Read", priority: "high", status: "pending" }],
    });
    recorder.recordPermission(t.sessionId, "turn-1", {
      tool_call_id: "x",
      options: [],
      outcome: "cancelled",
    });
    recorder.recordUpdate(t.sessionId, null, { sessionUpdate: "_acme/heartbeat", beat: 3 });
    recorder.recordInvalidFrame(t.sessionId, null, "{not json", "bad JSON");
    recorder.recordAgentExited(t.sessionId, null, { code: 0, signal: null });
    recorder.recordState(t.sessionId, "stopped", "exit code 0");
    expect(page().entries.map((entry) => [entry.message.role, entry.message.parts[0]])).toEqual([
      [
        "assistant",
        {
          type: "data-compozy-event",
          data: { type: "session.state", state: "active" },
        },
      ],
      [
        "assistant",
        {
          type: "data-compozy-event",
          data: {
            type: "plan",
            entries: [{ content: "Read", priority: "high", status: "pending" }],
          },
        },
      ],
      [
        "assistant",
        {
          type: "data-compozy-permission",
          id: "x",
          data: {
            type: "permission",
            request_id: "x",
            tool_call_id: "x",
            options: [],
            outcome: "cancelled",
          },
        },
      ],
      [
        "assistant",
        {
          type: "data-compozy-event",
          data: {
            type: "agent.unknown_update",
            raw: { sessionUpdate: "_acme/heartbeat", beat: 3 },
          },
        },
      ],
      [
        "assistant",
        {
          type: "data-compozy-event",
          data: { type: "agent.invalid_frame", error: "bad JSON" },
        },
      ],
      [
        "assistant",
        {
          type: "data-compozy-event",
          data: { type: "agent.exited", code: 0, signal: null },
        },
      ],
      [
        "assistant",
        {
          type: "data-compozy-event",
          data: { type: "session.state", state: "stopped", reason: "exit code 0" },
        },
      ],
    ]);
  });

  it("when rows only feed the meter or the history, then they produce no entry", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(1, 10));
    recorder.recordUpdate(t.sessionId, "turn-1", {
      sessionUpdate: "available_commands_update",
      availableCommands: [{ name: "compact", description: "Compact", input: null }],
    });
    recorder.recordPromptCompleted(t.sessionId, "turn-1", { stop_reason: "end_turn" });
    expect(page().entries).toEqual([]);
    expect(page().max_sequence).toBe(3);
    expect(t.ledger.reader.availableCommands(t.sessionId)).toEqual([
      { name: "compact", description: "Compact" },
    ]);
  });

  describe("long streamed messages", () => {
    const words = (index: number) => `w${index} `;

    it("when a message grows past a few KB, then every chunk still lands, in order, in one part", () => {
      t = openTestSession();
      let expected = "";
      for (let index = 0; index < 3000; index += 1) {
        t.ledger.recorder.recordUpdate(t.sessionId, "turn-1", frames.text(words(index)));
        expected += words(index);
      }
      const [entry] = page().entries;
      expect(entry?.message.parts).toEqual([{ type: "text", id: "asst-1-0", text: expected }]);
      expect(entry).toMatchObject({ start_sequence: 1, sequence: 3000 });
      expect(t.ledger.reader.entriesChangedAfter(t.sessionId, 2999)).toEqual([entry]);
    });

    it("when reasoning and text alternate in a long message, then parts split where the kind changes", () => {
      t = openTestSession();
      const expected: [string, string][] = [];
      for (let round = 0; round < 3; round += 1) {
        for (const kind of ["reasoning", "text"] as const) {
          let text = "";
          for (let index = 0; index < 400; index += 1) {
            const chunk = `${kind}${round}.${index} `;
            text += chunk;
            t.ledger.recorder.recordUpdate(
              t.sessionId,
              "turn-1",
              kind === "text"
                ? frames.text(chunk, "m1")
                : { ...frames.thought(chunk), messageId: "m1" },
            );
          }
          expected.push([kind, text]);
        }
      }
      const parts = page().entries[0]?.message.parts ?? [];
      expect(parts.map((part) => [part.type, "text" in part ? part.text : ""])).toEqual(expected);
      expect(parts.map((part) => ("id" in part ? part.id : ""))).toEqual(
        expected.map((_, index) => `msg-m1-${index}`),
      );
    });

    it("when a message streams a megabyte, then its entry row stays small and no chunk rewrites it (ADR 0042)", () => {
      const file = tempDatabase();
      t = openTestSession(file.path);
      const chunk = `${"x".repeat(1023)} `;
      for (let index = 0; index < 1024; index += 1) {
        t.ledger.recorder.recordUpdate(t.sessionId, "turn-1", frames.text(chunk, "big"));
      }
      const look = new Database(file.path, { readonly: true });
      const row = look
        .prepare<[], { chars: number; segments: number }>(
          `SELECT length(e.message) AS chars,
             (SELECT COUNT(*) FROM entry_tail_segments s WHERE s.entry_key = e.entry_key) AS segments
           FROM entries e`,
        )
        .get();
      look.close();
      // What the row holds is the message as it was when the tail started (≤ a few KB);
      // the rest sits in 4 KB segments that a chunk extends or adds one at a time.
      expect(row?.chars).toBeLessThan(4096);
      expect(row?.segments).toBeGreaterThanOrEqual(250);
      const [entry] = page().entries;
      expect(entry?.message.parts).toEqual([
        { type: "text", id: "msg-big-0", text: chunk.repeat(1024) },
      ]);
      expect(entry?.sequence).toBe(1024);
      t.ledger.close();
      file.cleanup();
      t = openTestSession();
    });

    it("when the database is reopened mid-message, then the unfolded tail is still there and streaming goes on", () => {
      const file = tempDatabase();
      t = openTestSession(file.path);
      let expected = "";
      for (let index = 0; index < 700; index += 1) {
        t.ledger.recorder.recordUpdate(t.sessionId, "turn-1", frames.text(words(index)));
        expected += words(index);
      }
      const sessionId = t.sessionId;
      t.ledger.close();
      const reopened = openLedger(file.path);
      t = { ledger: reopened, sessionId, tick: () => {} };
      expect(page().entries[0]?.message.parts[0]).toMatchObject({ text: expected });
      reopened.recorder.recordUpdate(sessionId, "turn-1", frames.text("end."));
      expect(page().entries[0]?.message.parts[0]).toMatchObject({ text: `${expected}end.` });
      reopened.close();
      file.cleanup();
      t = openTestSession();
    });
  });

  describe("paging", () => {
    function tenEntries() {
      t = openTestSession();
      for (let index = 0; index < 10; index += 1) {
        t.ledger.recorder.recordInput(t.sessionId, `turn-${index}`, `prompt ${index}`);
        t.ledger.recorder.recordUpdate(t.sessionId, `turn-${index}`, frames.usage(index, 100));
      }
    }

    it("when the limit is smaller than the transcript, then the newest entries come oldest first with a cursor", () => {
      tenEntries();
      const first = page(4);
      expect(first.entries.map((entry) => entry.start_sequence)).toEqual([13, 15, 17, 19]);
      expect(first).toMatchObject({
        has_older: true,
        next_before_sequence: 13,
        max_sequence: 20,
        limit: 4,
      });
      const second = page(4, first.next_before_sequence);
      expect(second.entries.map((entry) => entry.start_sequence)).toEqual([5, 7, 9, 11]);
      const third = page(4, second.next_before_sequence);
      expect(third.entries.map((entry) => entry.start_sequence)).toEqual([1, 3]);
      expect(third.has_older).toBe(false);
      expect(third).not.toHaveProperty("next_before_sequence");
    });

    it("when the page holds everything, then has_older is false and there is no cursor", () => {
      tenEntries();
      const all = page(10);
      expect(all.entries).toHaveLength(10);
      expect(all.has_older).toBe(false);
      expect(all).not.toHaveProperty("next_before_sequence");
    });

    it("when the session is empty or unknown, then the page is empty", () => {
      t = openTestSession();
      expect(page(5)).toMatchObject({ entries: [], has_older: false, max_sequence: 0 });
      expect(t.ledger.reader.transcriptPage("ses_missing", { limit: 5 }).entries).toEqual([]);
    });
  });

  it("when entries change after a cursor, then entriesChangedAfter returns each changed entry once, oldest first", () => {
    t = openTestSession();
    const { recorder } = t.ledger;
    recorder.recordInput(t.sessionId, "turn-1", "go");
    recorder.recordUpdate(t.sessionId, "turn-1", frames.tool("x"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.text("Working"));
    const cursor = t.ledger.reader.maxSequence(t.sessionId);
    recorder.recordUpdate(t.sessionId, "turn-1", frames.text("…"));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.toolUpdate("x", { status: "completed" }));
    recorder.recordUpdate(t.sessionId, "turn-1", frames.usage(5, 50));
    const changed = t.ledger.reader.entriesChangedAfter(t.sessionId, cursor);
    expect(
      changed.map((entry) => [entry.message.id, entry.start_sequence, entry.sequence]),
    ).toEqual([
      ["tool-x", 2, 5],
      ["asst-3", 3, 4],
    ]);
    expect(
      t.ledger.reader.entriesChangedAfter(t.sessionId, t.ledger.reader.maxSequence(t.sessionId)),
    ).toEqual([]);
  });
});

describe("transcript projection of real-agent updates", () => {
  let s: ReturnType<typeof openTestSession> | undefined;
  afterEach(() => s?.ledger.close());

  function partsOf(session: ReturnType<typeof openTestSession>) {
    return session.ledger.reader
      .transcriptPage(session.sessionId, { limit: 100 })
      .entries.map((entry) => [entry.message.role, entry.message.parts]);
  }

  it("when user message chunks arrive, then they make one user message per message id", () => {
    s = openTestSession();
    const { recorder } = s.ledger;
    for (const chunk of ["hel", "lo"]) {
      recorder.recordUpdate(s.sessionId, null, {
        sessionUpdate: "user_message_chunk",
        messageId: "u1",
        content: { type: "text", text: chunk },
      });
    }
    expect(partsOf(s)).toEqual([["user", [{ type: "text", id: "umsg-u1-0", text: "hello" }]]]);
  });

  it("when Codex streams terminal output in _meta, then it accumulates per terminal, keeping the newest 64 KiB", () => {
    s = openTestSession();
    const { recorder } = s.ledger;
    recorder.recordUpdate(s.sessionId, "t", {
      sessionUpdate: "tool_call",
      toolCallId: "c1",
      title: "make",
      kind: "execute",
      content: [{ type: "terminal", terminalId: "c1" }],
    });
    const big = "y".repeat(40 * 1024);
    for (const data of ["start\n", big, big]) {
      recorder.recordUpdate(s.sessionId, "t", {
        sessionUpdate: "tool_call_update",
        toolCallId: "c1",
        _meta: { terminal_output_delta: { data, terminal_id: "c1" } },
      });
    }
    recorder.recordUpdate(s.sessionId, "t", {
      sessionUpdate: "tool_call_update",
      toolCallId: "c1",
      status: "completed",
      _meta: { terminal_exit: { exit_code: 2, signal: null, terminal_id: "c1" } },
    });
    const [[, parts]] = partsOf(s) as [
      [
        string,
        {
          output: {
            terminals: Record<string, { output: string; truncated: boolean; exit_code: number }>;
          };
          state: string;
        }[],
      ],
    ];
    const terminal = parts[0]?.output.terminals.c1;
    expect(terminal?.output.length).toBe(64 * 1024);
    expect(terminal?.output.startsWith("start")).toBe(false);
    expect(terminal).toMatchObject({ truncated: true, exit_code: 2, signal: null });
    expect(parts[0]?.state).toBe("output-available");
  });

  it("when a notice arrives, then it is an event line with its severity, apart from any reply", () => {
    s = openTestSession();
    const { recorder } = s.ledger;
    recorder.recordUpdate(s.sessionId, "t", frames.text("Hi", "m1"));
    recorder.recordUpdate(s.sessionId, "t", {
      sessionUpdate: "notice",
      severity: "error",
      title: "Rate limited",
      description: "Retry in 30 s",
    });
    recorder.recordUpdate(s.sessionId, "t", frames.text(" there", "m1"));
    expect(partsOf(s)).toEqual([
      ["assistant", [{ type: "text", id: "msg-m1-0", text: "Hi there" }]],
      [
        "assistant",
        [
          {
            type: "data-compozy-event",

            data: {
              type: "notice",
              severity: "error",
              title: "Rate limited",
              description: "Retry in 30 s",
              source: "acp",
            },
          },
        ],
      ],
    ]);
  });

  it("when titles, modes, options and extension notifications arrive, then they make no transcript entry", () => {
    s = openTestSession();
    const { recorder, reader } = s.ledger;
    recorder.recordUpdate(s.sessionId, null, { sessionUpdate: "session_info_update", title: "T" });
    recorder.recordUpdate(s.sessionId, null, {
      sessionUpdate: "session_info_update",
      _meta: { codex: { threadStatus: { type: "idle" } } },
    });
    recorder.recordUpdate(s.sessionId, null, {
      sessionUpdate: "current_mode_update",
      currentModeId: "plan",
    });
    recorder.recordUpdate(s.sessionId, null, {
      sessionUpdate: "config_option_update",
      configOptions: [],
    });
    recorder.recordExtension(s.sessionId, null, "_auth/status_update", { authStatus: {} });
    expect(partsOf(s)).toEqual([]);
    expect(reader.sessionSettings(s.sessionId)).toEqual({
      title: "T",
      modes: { current_mode_id: "plan", available_modes: [] },
      config_options: [],
    });
    recorder.recordUpdate(s.sessionId, null, { sessionUpdate: "session_info_update", title: null });
    expect(reader.sessionSettings(s.sessionId).title).toBeNull();
  });
});

describe("session settings: the current mode", () => {
  it("when the agent's mode config option changes after the modes, then it is the current mode", () => {
    const s = openTestSession();
    const { recorder, reader } = s.ledger;
    recorder.recordSessionSetup(s.sessionId, {
      modes: {
        currentModeId: "auto",
        availableModes: [
          { id: "auto", name: "Auto" },
          { id: "plan", name: "Plan" },
        ],
      },
    });
    recorder.recordUpdate(s.sessionId, null, {
      sessionUpdate: "config_option_update",
      configOptions: [
        {
          id: "mode",
          name: "Mode",
          category: "mode",
          type: "select",
          currentValue: "plan",
          options: [
            { value: "auto", name: "Auto" },
            { value: "plan", name: "Plan" },
          ],
        },
      ],
    });
    expect(reader.sessionSettings(s.sessionId).modes?.current_mode_id).toBe("plan");
    recorder.recordUpdate(s.sessionId, null, {
      sessionUpdate: "current_mode_update",
      currentModeId: "auto",
    });
    expect(reader.sessionSettings(s.sessionId).modes?.current_mode_id).toBe("auto");
    s.ledger.close();
  });
});
