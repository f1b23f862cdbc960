// The ledger as a whole: the store, restart, atomicity, the append-only guarantee,
// history and events, commit notices.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { DaemonEventList as EventList, DaemonHistory as History } from "../../src/contract/history";
import type { CommitNotice, Ledger } from "../domain/session-recorder-api";
import { frames, openTestSession, type TestSession, tempDatabase } from "../testing/ledger-session";
import { MIGRATIONS, migrate } from "./migrations";
import { openLedger } from "./open-ledger";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function fileSession(): TestSession & { path: string } {
  const db = tempDatabase();
  const session = openTestSession(db.path);
  cleanups.push(db.cleanup);
  return { ...session, path: db.path };
}

function memorySession(): TestSession {
  const session = openTestSession();
  cleanups.push(() => session.ledger.close());
  return session;
}

/** A realistic little conversation with a compaction in it. */
function converse(ledger: Ledger, sessionId: string): void {
  const { recorder } = ledger;
  recorder.recordState(sessionId, "active");
  recorder.recordInput(sessionId, "turn-1", "Fix the bug");
  recorder.recordUpdate(sessionId, "turn-1", frames.thought("Looking"));
  recorder.recordUpdate(sessionId, "turn-1", frames.tool("t1", { rawInput: { path: "a.ts" } }));
  recorder.recordUpdate(sessionId, "turn-1", frames.toolUpdate("t1", { status: "completed" }));
  recorder.recordUpdate(sessionId, "turn-1", frames.text("Fixed."));
  recorder.recordUpdate(sessionId, "turn-1", frames.usage(700, 1000));
  recorder.recordPromptCompleted(sessionId, "turn-1", { stop_reason: "end_turn", input_tokens: 5 });
  recorder.recordCompactionRequested(sessionId, "turn-2", {
    command: "compact",
    requested_by: "web",
  });
  recorder.recordUpdate(sessionId, "turn-2", frames.chunk("c1", "Summary so far"));
}

function snapshot(ledger: Ledger, sessionId: string) {
  const { reader } = ledger;
  return {
    page: reader.transcriptPage(sessionId, { limit: 50 }),
    usage: reader.usage(sessionId),
    turns: reader.usageTurns(sessionId),
    history: reader.history(sessionId, { limit: 1000 }),
    open: reader.openCompactions(sessionId),
    version: reader.historyVersion(sessionId),
  };
}

describe("openLedger", () => {
  it("when the database file is reopened, then every read is identical and the sequence continues", () => {
    const first = fileSession();
    converse(first.ledger, first.sessionId);
    const before = snapshot(first.ledger, first.sessionId);
    const maxBefore = first.ledger.reader.maxSequence(first.sessionId);
    first.ledger.close();

    const reopened = openLedger(first.path);
    cleanups.unshift(() => reopened.close());
    expect(snapshot(reopened, first.sessionId)).toEqual(before);
    // The compaction state survived: the chunk accumulated before the restart is exposed now.
    const rows = reopened.recorder.recordUpdate(
      first.sessionId,
      "turn-2",
      frames.compaction("c1", "completed"),
    );
    expect(rows[0]?.sequence).toBe(maxBefore + 1);
    expect(rows[0]?.content).toMatchObject({ summary: "Summary so far", terminal: true });
    expect(reopened.reader.usage(first.sessionId).context.state).toBe("unknown");
    expect(reopened.store.getSession(first.sessionId)?.agent_name).toBe("demo");
  });

  it("when the daemon restarts mid-compaction, then chunks before and after the restart form one summary", () => {
    const first = fileSession();
    first.ledger.recorder.recordUpdate(
      first.sessionId,
      "turn-1",
      frames.chunk("c1", "Before restart. "),
    );
    first.ledger.close();
    const reopened = openLedger(first.path);
    cleanups.unshift(() => reopened.close());
    expect(reopened.reader.openCompactions(first.sessionId)).toEqual(["c1"]);
    reopened.recorder.recordUpdate(first.sessionId, "turn-1", frames.chunk("c1", "After restart."));
    const [row] = reopened.recorder.recordUpdate(
      first.sessionId,
      "turn-1",
      frames.compaction("c1", "completed"),
    );
    expect(row?.content).toEqual({
      compaction_id: "c1",
      status: "completed",
      summary: "Before restart. After restart.",
      terminal: true,
    });
    expect(
      reopened.reader.events(first.sessionId, { type: "session.compaction_fired", limit: 10 })
        .events,
    ).toHaveLength(1);
  });

  it("when the writing process is killed with SIGKILL, then every committed row has its projection and nothing else", async () => {
    const session = fileSession();
    session.ledger.close();
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        fileURLToPath(new URL("../testing/crash-writer.ts", import.meta.url)),
        session.path,
        session.sessionId,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));

    const reopened = openLedger(session.path);
    cleanups.unshift(() => reopened.close());
    const { reader } = reopened;
    const max = reader.maxSequence(session.sessionId);
    // The raw rows themselves (the read surfaces hide summary chunks by design).
    const raw = new Database(session.path, { readonly: true });
    const all = (
      raw
        .prepare(
          "SELECT sequence, type, content FROM ledger WHERE session_id = ? ORDER BY sequence",
        )
        .all(session.sessionId) as { sequence: number; type: string; content: string }[]
    ).map((row) => ({ ...row, content: JSON.parse(row.content) as Record<string, unknown> }));
    raw.close();
    // Sequences are exactly 1..max: nothing half-written, nothing skipped.
    expect(all.map((event) => event.sequence)).toEqual(
      Array.from({ length: max }, (_, i) => i + 1),
    );
    // Every input row has its user entry, every tool call its tool entry, every terminal
    // compaction row its ended item: the projection matches the ledger exactly.
    const entries = reader.entriesChangedAfter(session.sessionId, 0);
    const ids = new Set(entries.map((entry) => entry.message.id));
    for (const event of all) {
      if (event.type === "input") expect(ids.has(`user-${event.sequence}`)).toBe(true);
      if (event.type === "tool_call")
        expect(ids.has(`tool-${String(event.content.toolCallId)}`)).toBe(true);
    }
    expect(entries.every((entry) => entry.sequence <= max)).toBe(true);
    const inputs = all.filter((event) => event.type === "input").length;
    expect(entries.filter((entry) => entry.message.role === "user")).toHaveLength(inputs);
    expect(reader.usageTurns(session.sessionId).turns).toHaveLength(inputs);
    expect(max).toBeGreaterThan(6);
    // And the session goes on where it stopped.
    const [row] = reopened.recorder.recordInput(session.sessionId, "after", "again");
    expect(row?.sequence).toBe(max + 1);
  });

  it("when a schema-2 database (sequence kept in sessions.last_sequence) is opened, then sequences and activity times come from the ledger", () => {
    const file = tempDatabase();
    cleanups.push(file.cleanup);
    const old = new Database(file.path);
    migrate(old, 2);
    old.exec(`
      INSERT INTO workspaces VALUES ('ws_1', 'p', '/p', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
      INSERT INTO sessions (id, workspace_id, agent_name, created_at, updated_at, last_sequence)
        VALUES ('ses_1', 'ws_1', 'demo', '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z', 2);
      INSERT INTO ledger VALUES ('ses_1', 1, 't', 'input', '{"text":"a"}', '2026-01-01T00:00:01.000Z');
      INSERT INTO ledger VALUES ('ses_1', 2, 't', 'input', '{"text":"b"}', '2026-01-02T00:00:00.000Z');
    `);
    old.close();
    const ledger = openLedger(file.path, { now: () => new Date("2026-01-03T00:00:00.000Z") });
    cleanups.unshift(() => ledger.close());
    expect(ledger.reader.maxSequence("ses_1")).toBe(2);
    expect(ledger.store.getSession("ses_1")?.updated_at).toBe("2026-01-02T00:00:00.000Z");
    const [row] = ledger.recorder.recordInput("ses_1", "t2", "c");
    expect(row?.sequence).toBe(3);
    expect(ledger.reader.maxSequence("ses_1")).toBe(3);
    expect(ledger.store.getSession("ses_1")?.updated_at).toBe("2026-01-03T00:00:00.000Z");
    expect(ledger.store.listSessions({})[0]?.updated_at).toBe("2026-01-03T00:00:00.000Z");
  });

  it("when a session has no rows yet, then its activity time is its creation time and its sequence 0", () => {
    const { ledger, sessionId } = memorySession();
    const session = ledger.store.getSession(sessionId);
    expect(session?.updated_at).toBe(session?.created_at);
    expect(ledger.reader.maxSequence(sessionId)).toBe(0);
  });

  it("when a projection write fails mid-transaction, then neither the row nor any projection change is kept", () => {
    const session = fileSession();
    cleanups.unshift(() => session.ledger.close());
    const { recorder, reader } = session.ledger;
    recorder.recordInput(session.sessionId, "turn-1", "go");
    // A second connection plants a fault in the entries table: the ledger insert of the
    // next tool call succeeds, then its projection update fails inside the transaction.
    const saboteur = new Database(session.path);
    saboteur.exec(`CREATE TRIGGER boom BEFORE INSERT ON entries WHEN NEW.kind = 'tool'
      BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
    saboteur.close();
    const notices: CommitNotice[] = [];
    recorder.onCommit((notice) => notices.push(notice));
    const before = snapshot(session.ledger, session.sessionId);

    expect(() => recorder.recordUpdate(session.sessionId, "turn-1", frames.tool("t1"))).toThrow(
      /injected failure/,
    );
    expect(snapshot(session.ledger, session.sessionId)).toEqual(before);
    expect(reader.maxSequence(session.sessionId)).toBe(1);
    expect(reader.events(session.sessionId, { limit: 10 }).events).toHaveLength(1);
    expect(notices).toEqual([]);

    // A usage row has no entry, so it still commits; the sequence goes on without a gap.
    const [row] = recorder.recordUpdate(session.sessionId, "turn-1", frames.usage(1, 2));
    expect(row?.sequence).toBe(2);
  });

  it("when a prompt's admission is recorded, then it survives a reopen and the retry finds it", () => {
    const first = fileSession();
    const admission = {
      idempotency_key: "k-1",
      message_id: "m-1",
      fingerprint: "f-1",
      result: { status: "accepted", replayed: false },
    };
    const rows = first.ledger.recorder.recordPrompt(first.sessionId, "turn-1", "go", admission);
    expect(rows.map((row) => row.type)).toEqual(["input"]);
    first.ledger.close();
    const reopened = openLedger(first.path);
    cleanups.unshift(() => reopened.close());
    expect(reopened.reader.promptAdmission(first.sessionId, "k-1")).toEqual({
      ...admission,
      turn_id: "turn-1",
    });
    expect(reopened.reader.promptAdmission(first.sessionId, "k-2")).toBeUndefined();
    // The key is unique per session: a second admission under it is refused, atomically.
    expect(() =>
      reopened.recorder.recordPrompt(first.sessionId, "turn-2", "again", admission),
    ).toThrow();
    expect(
      reopened.reader.events(first.sessionId, { type: "input", limit: 10 }).events,
    ).toHaveLength(1);
  });

  it("when summary chunks carry a secret, then no read surface shows a chunk or the secret", () => {
    const { ledger, sessionId } = memorySession();
    const secret = "sk-proj-1234567890abcdefghij";
    ledger.recorder.recordUpdate(sessionId, "turn-1", frames.chunk("c1", `use ${secret} `));
    ledger.recorder.recordUpdate(sessionId, "turn-1", frames.chunk("c1", "then deploy"));
    ledger.recorder.recordUpdate(sessionId, "turn-1", frames.compaction("c1", "_paused"));
    const paused = JSON.stringify(ledger.reader.transcriptPage(sessionId, { limit: 10 }));
    expect(paused).not.toContain("deploy");
    ledger.recorder.recordUpdate(sessionId, "turn-1", frames.compaction("c1", "completed"));
    const surfaces = JSON.stringify([
      ledger.reader.events(sessionId, { limit: 1000 }),
      ledger.reader.history(sessionId, { limit: 1000 }),
      ledger.reader.transcriptPage(sessionId, { limit: 1000 }),
    ]);
    expect(surfaces).not.toContain(secret);
    expect(surfaces).not.toContain("compaction.chunk");
    // One row per snapshot: in_progress, _paused, completed (the summary redacted).
    const rows = ledger.reader.events(sessionId, { type: "compaction", limit: 10 }).events;
    expect(rows.map((row) => String(row.content.status))).toEqual([
      "in_progress",
      "_paused",
      "completed",
    ]);
    expect(String(rows[2]?.content.summary)).toContain("then deploy");
  });

  it("when a session is deleted, then its ledger rows go with it and other sessions keep theirs", () => {
    const { ledger, sessionId } = memorySession();
    ledger.recorder.recordInput(sessionId, "turn-1", "go");
    const other = ledger.store.createSession({
      workspaceId: ledger.store.getSession(sessionId)?.workspace_id ?? "",
      agentName: "demo",
    });
    ledger.recorder.recordInput(other.id, "turn-1", "stay");
    ledger.store.deleteSession(sessionId);
    expect(ledger.store.getSession(sessionId)).toBeUndefined();
    expect(ledger.reader.maxSequence(sessionId)).toBe(0);
    expect(ledger.reader.maxSequence(other.id)).toBe(1);
  });

  it("when anything tries to update or delete a ledger row, then the database refuses", () => {
    const session = fileSession();
    cleanups.unshift(() => session.ledger.close());
    session.ledger.recorder.recordInput(session.sessionId, "turn-1", "go");
    const db = new Database(session.path);
    try {
      expect(() => db.exec("UPDATE ledger SET type = 'x'")).toThrow(/append-only/);
      expect(() => db.exec("DELETE FROM ledger")).toThrow(/append-only/);
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
    } finally {
      db.close();
    }
  });

  it("when records run in a batch, then they commit together and listeners hear them after, in order (ADR 0043)", () => {
    const session = fileSession();
    cleanups.unshift(() => session.ledger.close());
    const { recorder } = session.ledger;
    const seen: { sequences: number[]; visible: number }[] = [];
    recorder.onCommit((notice) => {
      const db = new Database(session.path, { readonly: true });
      const visible = (db.prepare("SELECT COUNT(*) AS n FROM ledger").get() as { n: number }).n;
      db.close();
      seen.push({ sequences: notice.rows.map((row) => row.sequence), visible });
    });
    recorder.batch(() => {
      recorder.recordUpdate(session.sessionId, "turn-1", frames.text("a", "m"));
      // A failing call inside the batch rolls back only itself.
      expect(() => recorder.recordInput("no-such-session", "turn-1", "x")).toThrow();
      recorder.recordUpdate(session.sessionId, "turn-1", frames.text("b", "m"));
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual([
      { sequences: [1], visible: 2 },
      { sequences: [2], visible: 2 },
    ]);
    // A batch that throws as a whole keeps nothing and tells nothing; appends go on after it.
    expect(() =>
      recorder.batch(() => {
        recorder.recordUpdate(session.sessionId, "turn-1", frames.text("lost", "m"));
        throw new Error("disk full");
      }),
    ).toThrow("disk full");
    expect(seen).toHaveLength(2);
    recorder.recordUpdate(session.sessionId, "turn-1", frames.text("c", "m"));
    expect(seen[2]?.sequences).toEqual([3]);
    const text = session.ledger.reader.transcriptPage(session.sessionId, { limit: 10 }).entries[0]
      ?.message.parts[0];
    expect(text).toMatchObject({ text: "abc" });
  });

  it("when a commit happens, then listeners hear it after it is durable, with the rows in order", () => {
    const session = fileSession();
    cleanups.unshift(() => session.ledger.close());
    const seen: { notice: CommitNotice; visible: number }[] = [];
    const stop = session.ledger.recorder.onCommit((notice) => {
      // A second connection sees the rows already: the listener runs after COMMIT.
      const db = new Database(session.path, { readonly: true });
      const visible = (db.prepare("SELECT COUNT(*) AS n FROM ledger").get() as { n: number }).n;
      db.close();
      seen.push({ notice, visible });
    });
    session.ledger.recorder.recordCompactionRequested(session.sessionId, "turn-1", {
      command: "compact",
      requested_by: "cli",
    });
    stop();
    session.ledger.recorder.recordInput(session.sessionId, "turn-2", "unheard");
    expect(seen).toHaveLength(1);
    expect(seen[0]?.visible).toBe(2);
    expect(seen[0]?.notice.maxSequence).toBe(2);
    expect(seen[0]?.notice.rows.map((row) => row.type)).toEqual([
      "session.compaction.requested",
      "input",
    ]);
    expect(seen[0]?.notice.rows[0]?.content).toEqual({
      session_id: session.sessionId,
      command: "compact",
      requested_by: "cli",
    });
  });

  it("when a row is appended, then created_at is RFC 3339 UTC with milliseconds", () => {
    const db = tempDatabase();
    cleanups.push(db.cleanup);
    const ledger = openLedger(db.path);
    cleanups.unshift(() => ledger.close());
    const workspace = ledger.store.ensureWorkspace("/w", "w");
    const session = ledger.store.createSession({ workspaceId: workspace.id, agentName: "demo" });
    const [row] = ledger.recorder.recordInput(session.id, "turn-1", "x");
    expect(row?.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it("when the session does not exist, then recording throws and nothing is written", () => {
    const session = memorySession();
    expect(() => session.ledger.recorder.recordInput("ses_nope", "turn-1", "x")).toThrow(
      /unknown session/,
    );
  });
});

describe("session store", () => {
  it("when a workspace is ensured twice for one root, then the same workspace comes back", () => {
    const { ledger } = memorySession();
    const again = ledger.store.ensureWorkspace("/work/project", "renamed");
    expect(ledger.store.listWorkspaces()).toEqual([again]);
    expect(ledger.store.getWorkspace(again.id)).toEqual(again);
    expect(again.name).toBe("project");
  });

  it("when sessions see activity, then they are listed newest activity first, per workspace too", () => {
    const { ledger, sessionId, tick } = memorySession();
    const workspace = ledger.store.listWorkspaces()[0];
    if (!workspace) throw new Error("no workspace");
    tick();
    const second = ledger.store.createSession({
      workspaceId: workspace.id,
      agentName: "demo",
      name: "Second",
    });
    const other = ledger.store.ensureWorkspace("/elsewhere", "elsewhere");
    tick();
    const third = ledger.store.createSession({ workspaceId: other.id, agentName: "demo" });
    tick();
    ledger.recorder.recordInput(sessionId, "turn-1", "wake up");
    expect(ledger.store.listSessions({}).map((s) => s.id)).toEqual([
      sessionId,
      third.id,
      second.id,
    ]);
    expect(ledger.store.listSessions({ workspaceId: workspace.id }).map((s) => s.id)).toEqual([
      sessionId,
      second.id,
    ]);
    expect(ledger.store.getSession(second.id)).toEqual(second);
    expect(second.id).toMatch(/^ses_[A-Za-z0-9_-]{12}$/);
  });

  it("when the agent's ACP session id is known, then it is stored on the session", () => {
    const { ledger, sessionId } = memorySession();
    ledger.store.setAcpSessionId(sessionId, "acp-123");
    expect(ledger.store.getSession(sessionId)?.acp_session_id).toBe("acp-123");
    expect(ledger.store.getSession("ses_missing")).toBeUndefined();
  });
});

describe("history and events", () => {
  it("when the history is read, then rows are grouped by turn with between-turn rows under an empty turn id", () => {
    const { ledger, sessionId } = memorySession();
    converse(ledger, sessionId);
    const { history } = History.parse(ledger.reader.history(sessionId, { limit: 1000 }));
    // turn-2's summary chunk is kept for a restart but never read back one by one.
    expect(history.map((group) => [group.turn_id, group.events.length])).toEqual([
      ["", 1],
      ["turn-1", 7],
      ["turn-2", 4],
    ]);
    const event = history[1]?.events[0];
    expect(event).toEqual({
      id: `${sessionId}-2`,
      session_id: sessionId,
      sequence: 2,
      turn_id: "turn-1",
      type: "input",
      agent_name: "demo",
      workspace_id: ledger.store.getSession(sessionId)?.workspace_id,
      spawn_depth: 0,
      content: {
        schema: "compozy.session.event.v1",
        type: "input",
        text: "Fix the bug",
        timestamp: "2026-01-01T00:00:00.000Z",
      },
      timestamp: "2026-01-01T00:00:00.000Z",
    });
    expect(history[0]?.events[0]?.turn_id).toBe("");
    expect(
      ledger.reader
        .history(sessionId, { turn_id: "turn-2", limit: 10 })
        .history.map((group) => group.turn_id),
    ).toEqual(["turn-2"]);
    // `limit` counts turns: the newest ones.
    expect(
      ledger.reader.history(sessionId, { limit: 2 }).history.map((group) => group.turn_id),
    ).toEqual(["turn-1", "turn-2"]);
  });

  it("when events are filtered, then turn, type, after_sequence and the newest-limit apply, chunks never", () => {
    const { ledger, sessionId } = memorySession();
    converse(ledger, sessionId);
    const read = (query: {
      turn_id?: string;
      type?: string;
      after_sequence?: number;
      limit: number;
    }) => EventList.parse(ledger.reader.events(sessionId, query));
    const all = read({ limit: 1000 });
    expect(all.events.map((event) => event.sequence)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13,
    ]);
    expect(all).not.toHaveProperty("has_more");
    // CompozyOS: the newest `limit` matching rows, oldest first.
    const newestThree = read({ limit: 3 });
    expect(newestThree.events.map((event) => event.sequence)).toEqual([10, 12, 13]);
    expect(read({ limit: 100, after_sequence: 10 }).events.map((event) => event.type)).toEqual([
      "compaction",
      "session.compaction_fired",
    ]);
    expect(read({ limit: 100, type: "compaction.chunk" }).events).toEqual([]);
    expect(
      read({ limit: 100, turn_id: "turn-2", type: "input" }).events.map((event) => event.sequence),
    ).toEqual([10]);
    // Streaming types are not in the type index; the filtered range walk finds them too.
    expect(
      read({ limit: 100, type: "agent.thought_chunk" }).events.map((event) => event.sequence),
    ).toEqual([3]);
    expect(
      read({ limit: 100, type: "tool_call_update" }).events.map((event) => event.sequence),
    ).toEqual([5]);
    expect(read({ limit: 100, type: "usage" }).events[0]?.content).toMatchObject({
      context_used: 700,
      context_size: 1000,
    });
  });

  it("when rows arrive between turns, then they share the empty-turn group and turn queries skip them", () => {
    const { ledger, sessionId } = memorySession();
    const { recorder, reader } = ledger;
    recorder.recordInput(sessionId, "turn-1", "a");
    recorder.recordUpdate(sessionId, null, frames.usage(1, 10));
    recorder.recordInput(sessionId, "turn-2", "b");
    recorder.recordUpdate(sessionId, "turn-2", frames.text("B"));
    recorder.recordState(sessionId, "stopped");
    expect(
      reader
        .history(sessionId, { limit: 100 })
        .history.map((group) => [group.turn_id, group.events.map((e) => e.sequence)]),
    ).toEqual([
      ["turn-1", [1]],
      ["", [2, 5]],
      ["turn-2", [3, 4]],
    ]);
    expect(
      reader.events(sessionId, { turn_id: "turn-1", limit: 10 }).events.map((e) => e.sequence),
    ).toEqual([1]);
    expect(
      reader
        .events(sessionId, { turn_id: "turn-2", after_sequence: 3, limit: 10 })
        .events.map((e) => e.sequence),
    ).toEqual([4]);
    expect(reader.events(sessionId, { turn_id: "turn-9", limit: 10 })).toEqual({ events: [] });
    expect(reader.history(sessionId, { turn_id: "turn-9", limit: 10 })).toEqual({ history: [] });
  });

  it("when state and commands were recorded, then lastState and availableCommands return the newest", () => {
    const { ledger, sessionId } = memorySession();
    expect(ledger.reader.lastState(sessionId)).toEqual({ state: "stopped" });
    expect(ledger.reader.availableCommands(sessionId)).toEqual([]);
    ledger.recorder.recordState(sessionId, "starting");
    ledger.recorder.recordState(sessionId, "stopped", "initialize timed out");
    ledger.recorder.recordUpdate(sessionId, null, {
      sessionUpdate: "available_commands_update",
      availableCommands: [
        { name: "compact", description: "Compact the context" },
        { name: "review", description: "Review", input: { hint: "file" } },
      ],
    });
    expect(ledger.reader.lastState(sessionId)).toEqual({
      state: "stopped",
      reason: "initialize timed out",
    });
    expect(ledger.reader.availableCommands(sessionId)).toEqual([
      { name: "compact", description: "Compact the context" },
      { name: "review", description: "Review", input: { hint: "file" } },
    ]);
    // CompozyOS's int64 epoch and generation: numbers, never strings.
    expect(ledger.reader.historyVersion(sessionId)).toEqual({
      epoch: expect.any(Number),
      generation: 1,
    });
    expect(Number.isSafeInteger(ledger.reader.historyVersion(sessionId).epoch)).toBe(true);
  });
});
