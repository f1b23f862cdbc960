import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SessionUpdatedEvent,
  TranscriptDeltaEvent,
  TranscriptSnapshotEvent,
  UsageChangedEvent,
} from "../../src/contract/stream";
import type { Entry } from "../../src/contract/transcript";
import { openSse, type SseConnection } from "./sse-reader";
import { startTestDaemon, type TestDaemon } from "./test-daemon";

/** Merges entries the way the SPA does: keyed by start_sequence, newer sequence wins. */
function merge(into: Map<number, Entry>, entries: readonly Entry[]) {
  for (const entry of entries) {
    const known = into.get(entry.start_sequence);
    if (known === undefined || entry.sequence >= known.sequence)
      into.set(entry.start_sequence, entry);
  }
}

function deltas(connection: SseConnection) {
  return connection.events
    .filter((e) => e.event === "transcript_delta")
    .map((e) => ({ id: e.id, data: TranscriptDeltaEvent.parse(JSON.parse(e.data)) }));
}

describe("the session stream", () => {
  let daemon: TestDaemon;
  let base: string;
  let sessionId: string;
  let streamUrl: string;

  beforeAll(async () => {
    daemon = await startTestDaemon({ keepaliveMs: 100 });
    base = await daemon.listen();
    const session = await daemon.createActiveSession();
    sessionId = session.id;
    streamUrl = `${base}${daemon.sessionPath(sessionId)}/stream`;
    await daemon.call("POST", `${daemon.sessionPath(sessionId)}/prompt`, {
      body: { text: "first" },
    });
    await daemon.waitForSession(sessionId, (s) => s.activity === undefined);
  });
  afterAll(() => daemon.stop());

  async function promptAndWait(text: string) {
    const response = await daemon.call("POST", `${daemon.sessionPath(sessionId)}/prompt`, {
      body: { text },
    });
    expect(response.status).toBe(202);
    await daemon.waitForSession(sessionId, (s) => s.activity === undefined);
  }

  it("when a client connects without a cursor, then a snapshot comes first, with id = max_sequence", async () => {
    const stream = await openSse(streamUrl);
    expect(stream.status).toBe(200);
    const first = await stream.waitFor(() => true);
    expect(first.event).toBe("transcript_snapshot");
    const snapshot = TranscriptSnapshotEvent.parse(JSON.parse(first.data));
    const page = daemon.ledger.reader.transcriptPage(sessionId, { limit: 200 });
    expect(snapshot.max_sequence).toBe(page.max_sequence);
    expect(first.id).toBe(String(page.max_sequence));
    expect(snapshot.entries).toEqual(page.entries);
    const updated = await stream.waitFor((e) => e.event === "session_updated");
    expect(SessionUpdatedEvent.parse(JSON.parse(updated.data)).session.id).toBe(sessionId);
    stream.close();
  });

  it("when the agent answers a prompt, then deltas, usage changes and session updates arrive live", async () => {
    const stream = await openSse(streamUrl);
    await stream.waitFor((e) => e.event === "transcript_snapshot");
    const from = stream.events.length;
    await promptAndWait("second");
    await stream.waitFor(
      (e) => e.event === "session_usage_changed" && JSON.parse(e.data).kind === "prompt_completed",
      5000,
      from,
    );
    const live = deltas(stream);
    expect(live.length).toBeGreaterThan(0);
    for (const delta of live) expect(delta.id).toBe(String(delta.data.cursor));
    expect(live.flatMap((d) => d.data.entries).some((e) => e.message.role === "user")).toBe(true);
    const usage = stream.events
      .filter((e) => e.event === "session_usage_changed")
      .map((e) => UsageChangedEvent.parse(JSON.parse(e.data)));
    expect(usage.map((u) => u.kind)).toEqual(expect.arrayContaining(["usage", "prompt_completed"]));
    const updates = stream.events
      .filter((e) => e.event === "session_updated")
      .map((e) => SessionUpdatedEvent.parse(JSON.parse(e.data)).session);
    expect(updates.some((s) => s.activity?.kind === "prompt")).toBe(true);
    expect(updates.at(-1)?.activity).toBeUndefined();
    stream.close();
  });

  it("when a client drops and resumes with after_sequence or Last-Event-ID, then it has every entry once", async () => {
    const truth = () => {
      const all = new Map<number, Entry>();
      merge(all, daemon.ledger.reader.transcriptPage(sessionId, { limit: 1000 }).entries);
      return all;
    };
    for (const resume of ["query", "header"] as const) {
      const seen = new Map<number, Entry>();
      const first = await openSse(streamUrl);
      const snap = TranscriptSnapshotEvent.parse(
        JSON.parse((await first.waitFor((e) => e.event === "transcript_snapshot")).data),
      );
      merge(seen, snap.entries);
      let cursor = snap.max_sequence;
      await promptAndWait(`while connected (${resume})`);
      await first.waitFor(
        (e) =>
          e.event === "session_usage_changed" && JSON.parse(e.data).kind === "prompt_completed",
      );
      for (const delta of deltas(first)) {
        merge(seen, delta.data.entries);
        cursor = Number(delta.id);
      }
      first.close();

      // Changes while disconnected.
      await promptAndWait(`while away (${resume})`);
      await daemon.call("POST", `${daemon.sessionPath(sessionId)}/compact`, { body: {} });
      await daemon.waitForSession(sessionId, (s) => s.activity === undefined);

      const second =
        resume === "query"
          ? await openSse(`${streamUrl}?after_sequence=${cursor}`)
          : await openSse(streamUrl, { "Last-Event-ID": String(cursor) });
      const catchUp = await second.waitFor(() => true);
      expect(catchUp.event).toBe("transcript_delta");
      const delta = TranscriptDeltaEvent.parse(JSON.parse(catchUp.data));
      expect(delta.entries.every((e) => e.sequence > cursor)).toBe(true);
      const starts = delta.entries.map((e) => e.start_sequence);
      expect(new Set(starts).size).toBe(starts.length);
      merge(seen, delta.entries);
      expect(seen).toEqual(truth());
      expect(catchUp.id).toBe(String(daemon.ledger.reader.maxSequence(sessionId)));
      second.close();
    }
  });

  it("when a cursor is already current, then the catch-up delta is empty", async () => {
    const max = daemon.ledger.reader.maxSequence(sessionId);
    const stream = await openSse(`${streamUrl}?after_sequence=${max}`);
    const first = await stream.waitFor(() => true);
    expect(TranscriptDeltaEvent.parse(JSON.parse(first.data)).entries).toEqual([]);
    stream.close();
  });

  it("when an EventSource reconnects by itself, then its Last-Event-ID beats the older cursor in its URL", async () => {
    const max = daemon.ledger.reader.maxSequence(sessionId);
    const stream = await openSse(`${streamUrl}?after_sequence=0`, { "Last-Event-ID": String(max) });
    const first = await stream.waitFor(() => true);
    expect(first.event).toBe("transcript_delta");
    expect(TranscriptDeltaEvent.parse(JSON.parse(first.data)).entries).toEqual([]);
    stream.close();
  });

  it("when nothing happens, then keepalive comments flow", async () => {
    const stream = await openSse(streamUrl);
    await stream.waitFor(() => true);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(stream.comments.filter((c) => c === "keepalive").length).toBeGreaterThanOrEqual(2);
    stream.close();
  });

  it("when a stream is asked with a bad cursor or for an unknown session, then 400 / 404 envelopes", async () => {
    expect((await fetch(`${streamUrl}?after_sequence=-1`)).status).toBe(400);
    expect((await fetch(`${streamUrl}?cursor=1`)).status).toBe(400);
    expect((await fetch(streamUrl, { headers: { "Last-Event-ID": "abc" } })).status).toBe(400);
    expect((await fetch(`${base}${daemon.sessionPath("ses_nope")}/stream`)).status).toBe(404);
  });

  it("when a client goes away, then it is unsubscribed", async () => {
    const stream = await openSse(streamUrl);
    await stream.waitFor(() => true);
    expect(daemon.streams.subscriberCount(sessionId)).toBe(1);
    stream.close();
    await promptAndWait("after the client left");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(daemon.streams.subscriberCount(sessionId)).toBe(0);
  });
});

describe("the stream at shutdown", () => {
  it("when the daemon closes, then open streams end cleanly", async () => {
    const daemon = await startTestDaemon();
    const base = await daemon.listen();
    const session = await daemon.createActiveSession();
    const stream = await openSse(`${base}${daemon.sessionPath(session.id)}/stream`);
    await stream.waitFor(() => true);
    await daemon.stop();
    await stream.ended;
    expect(stream.events[0]?.event).toBe("transcript_snapshot");
  });
});

describe("a client that stops reading", () => {
  it("when its queue passes the limit, then it is disconnected and resumes with its cursor, losing nothing", async () => {
    const { connect } = await import("node:net");
    const daemon = await startTestDaemon({ agents: [], maxQueuedBytes: 256 * 1024 });
    try {
      const base = new URL(await daemon.listen());
      const session = daemon.ledger.store.createSession({
        workspaceId: daemon.ws,
        agentName: "none",
      });
      const path = `${daemon.sessionPath(session.id)}/stream`;
      const socket = connect(Number(base.port), "127.0.0.1");
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${base.host}\r\n\r\n`);
      socket.pause();
      const closed = new Promise((resolve) => socket.once("close", resolve));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(daemon.streams.subscriberCount(session.id)).toBe(1);

      const big = "x".repeat(64 * 1024);
      for (let i = 0; i < 200 && daemon.streams.subscriberCount(session.id) > 0; i += 1) {
        daemon.ledger.recorder.recordUpdate(session.id, "t1", {
          sessionUpdate: "tool_call",
          toolCallId: `call-${i}`,
          title: "Read a big file",
          rawInput: { big },
        });
        await new Promise((resolve) => setImmediate(resolve));
      }
      socket.resume();
      await closed;
      expect(daemon.streams.subscriberCount(session.id)).toBe(0);

      const resumed = await openSse(`${base.origin}${path}?after_sequence=0`);
      const delta = TranscriptDeltaEvent.parse(
        JSON.parse((await resumed.waitFor(() => true)).data),
      );
      expect(delta.entries.length).toBe(
        daemon.ledger.reader.transcriptPage(session.id, { limit: 1000 }).entries.length,
      );
      resumed.close();
    } finally {
      await daemon.stop();
    }
  });
});
