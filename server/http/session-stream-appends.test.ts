// The append extension end to end on a served daemon: a client that asks folds append
// frames into what it holds and ends with exactly the daemon's transcript.
import { afterEach, describe, expect, it } from "vitest";
import {
  APPEND_QUERY,
  applyEntryAppend,
  DaemonTranscriptDeltaEvent,
  DaemonTranscriptSnapshotEvent,
  EntryAppendEvent,
} from "../../src/contract/stream";
import type { Entry } from "../../src/contract/transcript";
import { startTestDaemon, type TestDaemon } from "../testing/daemon";
import { openSse, type SseConnection } from "../testing/sse-reader";
import { APPEND_HOLD_MS } from "./stream-fanout";

type Update = Parameters<TestDaemon["ledger"]["recorder"]["recordUpdate"]>[2];

const chunk = (text: string, messageId = "m1"): Update => ({
  sessionUpdate: "agent_message_chunk",
  messageId,
  content: { type: "text", text },
});
const terminal = (data: string): Update => ({
  sessionUpdate: "tool_call_update",
  toolCallId: "t1",
  _meta: { terminal_output_delta: { terminal_id: "term-1", data } },
});

/** What a client that asked holds after every frame so far, as the SPA folds them. */
function fold(stream: SseConnection): { entries: Map<number, Entry>; cursor: number } {
  const entries = new Map<number, Entry>();
  let cursor = 0;
  const upsert = (list: readonly Entry[]) => {
    for (const entry of list) {
      const known = entries.get(entry.start_sequence);
      if (known === undefined || entry.sequence >= known.sequence)
        entries.set(entry.start_sequence, entry);
    }
  };
  for (const event of stream.events) {
    const data: unknown = JSON.parse(event.data);
    if (event.event === "transcript_snapshot") {
      const snapshot = DaemonTranscriptSnapshotEvent.parse(data);
      upsert(snapshot.entries);
      cursor = snapshot.max_sequence;
    } else if (event.event === "transcript_delta") {
      const delta = DaemonTranscriptDeltaEvent.parse(data);
      upsert(delta.entries);
      cursor = delta.cursor;
    } else if (event.event === "entry_append") {
      const append = EntryAppendEvent.parse(data);
      const held = entries.get(append.start_sequence);
      const applied = held && applyEntryAppend(held, append);
      if (applied === undefined) throw new Error(`gap at ${event.data}`);
      entries.set(append.start_sequence, applied);
      if (append.cursor !== undefined) cursor = append.cursor;
      expect(event.id === undefined).toBe(append.cursor === undefined);
    }
  }
  return { entries, cursor };
}

describe("a client that asks for append frames", () => {
  let daemon: TestDaemon | undefined;
  afterEach(async () => {
    await daemon?.stop();
    daemon = undefined;
  });

  async function setUp(options: Parameters<typeof startTestDaemon>[0] = {}) {
    daemon = await startTestDaemon({ agents: [], keepaliveMs: 600_000, ...options });
    const base = await daemon.listen();
    const session = daemon.ledger.store.createSession({ workspaceId: daemon.ws, agentName: "x" });
    daemon.ledger.recorder.recordState(session.id, "active");
    const url = `${base}${daemon.sessionPath(session.id)}/stream`;
    const ledger = daemon.ledger;
    return {
      url,
      record: (update: Update) => ledger.recorder.recordUpdate(session.id, "turn-1", update),
      truth: () => {
        const page = ledger.reader.transcriptPage(session.id, { limit: 1000 });
        return new Map(page.entries.map((entry) => [entry.start_sequence, entry]));
      },
      max: () => ledger.reader.maxSequence(session.id),
    };
  }

  /** Waits until the folded stream has reached the ledger's newest sequence. */
  async function caughtUp(stream: SseConnection, max: number) {
    await expect.poll(() => fold(stream).cursor, { timeout: 5_000 }).toBe(max);
  }

  it("when text, a tool's output and a new part stream, then appends where it only grew and the same transcript", async () => {
    const s = await setUp();
    const stream = await openSse(`${s.url}?${APPEND_QUERY}=true`);
    await stream.waitFor((e) => e.event === "session_commands_changed");
    const script: Update[] = [
      chunk("Hello"),
      chunk(" there, wide world, with enough text to be worth an append frame."),
      chunk(" Ünïcödé ✓ 🌊 and more of it, so the frame is not thin at all, not at all."),
      {
        sessionUpdate: "agent_thought_chunk",
        messageId: "m1",
        content: { type: "text", text: "a new reasoning part is the whole entry" },
      },
      {
        sessionUpdate: "tool_call",
        toolCallId: "t1",
        title: "Run ls",
        kind: "execute",
        status: "in_progress",
        rawInput: { command: "ls" },
      },
      terminal("line 1 of the terminal output, long enough to be sent on its own\n"),
      terminal("line 2 of the terminal output, long enough to be sent on its own\n"),
      { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" },
    ];
    for (const update of script) {
      s.record(update);
      await caughtUp(stream, s.max());
    }
    const kinds = stream.events
      .map((e) => e.event)
      .filter((name) => name !== "session_commands_changed");
    expect(kinds).toEqual([
      "transcript_snapshot",
      "transcript_delta", // the new message
      "entry_append",
      "entry_append",
      "transcript_delta", // a new part
      "transcript_delta", // the tool call
      "transcript_delta", // its output appears: a new field
      "entry_append", // its terminal output grows
      "transcript_delta", // its state changed in place
    ]);
    const output = stream.events.filter((e) => e.event === "entry_append").at(-1);
    expect(EntryAppendEvent.parse(JSON.parse(output?.data ?? "{}")).path).toEqual([
      "output",
      "terminals",
      "term-1",
      "output",
    ]);
    expect(fold(stream).entries).toEqual(s.truth());
    stream.close();
  });

  it("when small chunks trickle in, then they are held into fewer frames, none later than the hold", async () => {
    const s = await setUp();
    const stream = await openSse(`${s.url}?${APPEND_QUERY}=1`);
    await stream.waitFor((e) => e.event === "session_commands_changed");
    s.record(chunk("start"));
    await caughtUp(stream, s.max());
    const from = stream.events.length;
    const started = performance.now();
    for (let i = 0; i < 12; i += 1) {
      s.record(chunk(`c${i} `));
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    await caughtUp(stream, s.max());
    const appends = stream.events.slice(from).filter((e) => e.event === "entry_append");
    // Unheld, twelve chunks 60 ms apart are twelve frames of ~4 characters each.
    expect(appends.length).toBeGreaterThan(0);
    expect(appends.length).toBeLessThanOrEqual(3);
    const last = appends.at(-1);
    expect((last?.receivedAt ?? 0) - started).toBeLessThan(12 * 60 + APPEND_HOLD_MS + 300);
    expect(fold(stream).entries).toEqual(s.truth());
    stream.close();
  });

  it("when it connects in the middle of a message, then it appends to the entry its snapshot gave", async () => {
    const s = await setUp();
    s.record(chunk("x".repeat(500)));
    const stream = await openSse(`${s.url}?${APPEND_QUERY}=True`);
    await stream.waitFor((e) => e.event === "session_commands_changed");
    s.record(chunk("y".repeat(500)));
    await caughtUp(stream, s.max());
    expect(stream.events.map((e) => e.event)).toContain("entry_append");
    expect(fold(stream).entries).toEqual(s.truth());
    stream.close();
  });

  it("when the query says false or is not a boolean, then plain frames or a 400", async () => {
    const s = await setUp();
    s.record(chunk("x".repeat(500)));
    const plain = await openSse(`${s.url}?${APPEND_QUERY}=false`);
    await plain.waitFor((e) => e.event === "session_commands_changed");
    s.record(chunk("y".repeat(500)));
    await plain.waitFor((e) => e.event === "transcript_delta");
    expect(plain.events.map((e) => e.event)).not.toContain("entry_append");
    plain.close();
    for (const bad of ["maybe", "2", "yes"]) {
      const response = await fetch(`${s.url}?${APPEND_QUERY}=${bad}`);
      expect(response.status, bad).toBe(400);
      expect(await response.json()).toMatchObject({ code: "invalid_request" });
    }
    const twice = await fetch(`${s.url}?${APPEND_QUERY}=1&${APPEND_QUERY}=1`);
    expect(twice.status).toBe(400);
  });

  it("when one entry outgrows the queue limit, then a client that reads it is not dropped", async () => {
    const s = await setUp({ maxQueuedBytes: 64 * 1024 });
    for (const url of [s.url, `${s.url}?${APPEND_QUERY}=1`]) {
      const stream = await openSse(url);
      await stream.waitFor((e) => e.event === "session_commands_changed");
      // A whole entry four times the limit (a new tool call), then appends to it.
      s.record({
        sessionUpdate: "tool_call",
        toolCallId: `big-${url.length}`,
        title: "Read a big file",
        rawInput: { big: "z".repeat(256 * 1024) },
      });
      s.record(chunk("w".repeat(300 * 1024), `after-${url.length}`));
      await caughtUp(stream, s.max());
      expect(fold(stream).entries).toEqual(s.truth());
      stream.close();
    }
    expect(daemon?.logs().join("\n")).not.toContain("client too slow");
  });
});
