import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SessionCommandsChangedEvent,
  SessionStoppedEvent,
  streamSearchParams,
  DaemonTranscriptDeltaEvent as TranscriptDeltaEvent,
  DaemonTranscriptSnapshotEvent as TranscriptSnapshotEvent,
} from "../../src/contract/stream";
import type { Entry } from "../../src/contract/transcript";
import { startTestDaemon, type TestDaemon } from "../testing/daemon";
import { openSse, type SseConnection } from "../testing/sse-reader";

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
    await daemon.prompt(sessionId, "first");
    await daemon.waitForSession(sessionId, (s) => s.activity === undefined);
  });
  afterAll(() => daemon.stop());

  async function promptAndWait(text: string) {
    const response = await daemon.prompt(sessionId, text);
    expect(response.status).toBe(200);
    await daemon.waitForSession(sessionId, (s) => s.activity === undefined);
  }

  /** The resume URL with the fence, as CompozyOS's web builds it. */
  function resumeUrl(cursor: number, fence = daemon.ledger.reader.historyVersion(sessionId)) {
    return `${streamUrl}?${streamSearchParams({ afterSequence: cursor, ...fence })}`;
  }

  /** Waits until the stream has caught up with the transcript (its newest entry change). */
  function caughtUp(stream: SseConnection, from = 0) {
    const entries = daemon.ledger.reader.transcriptPage(sessionId, { limit: 1000 }).entries;
    const max = Math.max(...entries.map((entry) => entry.sequence));
    return stream.waitFor((e) => e.event === "transcript_delta" && Number(e.id) >= max, 5000, from);
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
    expect(snapshot).toMatchObject({
      reset: false,
      epoch: page.epoch,
      generation: page.generation,
    });
    expect(snapshot).not.toHaveProperty("reason");
    expect(typeof snapshot.epoch).toBe("number");
    const commands = await stream.waitFor((e) => e.event === "session_commands_changed");
    expect(SessionCommandsChangedEvent.parse(JSON.parse(commands.data))).toMatchObject({
      session_id: sessionId,
    });
    stream.close();
  });

  it("when the agent answers a prompt, then deltas arrive live, and no event CompozyOS lacks", async () => {
    const stream = await openSse(streamUrl);
    await stream.waitFor((e) => e.event === "transcript_snapshot");
    const from = stream.events.length;
    await promptAndWait("second");
    await caughtUp(stream, from);
    const live = deltas(stream);
    expect(live.length).toBeGreaterThan(0);
    for (const delta of live) {
      expect(delta.id).toBe(String(delta.data.cursor));
      expect(delta.data.has_more).toBe(false);
    }
    expect(live.flatMap((d) => d.data.entries).some((e) => e.message.role === "user")).toBe(true);
    const names = new Set(stream.events.map((e) => e.event));
    expect([...names].sort()).toEqual(
      ["session_commands_changed", "transcript_delta", "transcript_snapshot"].sort(),
    );
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
      await caughtUp(first);
      for (const delta of deltas(first)) {
        merge(seen, delta.data.entries);
        cursor = Number(delta.id);
      }
      first.close();

      // Changes while disconnected.
      await promptAndWait(`while away (${resume})`);
      await daemon.call("POST", `${daemon.sessionPath(sessionId)}/compact`, { body: {} });
      await daemon.waitForSession(sessionId, (s) => s.activity === undefined);

      const fence = daemon.ledger.reader.historyVersion(sessionId);
      const second =
        resume === "query"
          ? await openSse(resumeUrl(cursor))
          : await openSse(`${streamUrl}?${streamSearchParams(fence)}`, {
              "Last-Event-ID": String(cursor),
            });
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

  it("when a client resumes without the fence or with a stale one, then a reset snapshot says why", async () => {
    const max = daemon.ledger.reader.maxSequence(sessionId);
    const { epoch, generation } = daemon.ledger.reader.historyVersion(sessionId);
    for (const [url, reason] of [
      [`${streamUrl}?after_sequence=${max}`, "fence_missing"],
      [`${streamUrl}?after_sequence=${max}&epoch=${epoch}`, "fence_missing"],
      [resumeUrl(max, { epoch: epoch + 1, generation }), "epoch_mismatch"],
      [resumeUrl(max, { epoch, generation: generation + 1 }), "generation_mismatch"],
      [resumeUrl(max + 50), "sequence_reset"],
    ] as const) {
      const stream = await openSse(url);
      const first = await stream.waitFor(() => true);
      expect(first.event, url).toBe("transcript_snapshot");
      expect(TranscriptSnapshotEvent.parse(JSON.parse(first.data))).toMatchObject({
        reset: true,
        reason,
        max_sequence: max,
      });
      stream.close();
    }
  });

  it("when a cursor is already current, then the catch-up delta is empty", async () => {
    const max = daemon.ledger.reader.maxSequence(sessionId);
    const stream = await openSse(resumeUrl(max));
    const first = await stream.waitFor(() => true);
    expect(TranscriptDeltaEvent.parse(JSON.parse(first.data)).entries).toEqual([]);
    stream.close();
  });

  it("when an EventSource reconnects by itself, then its Last-Event-ID beats the older cursor in its URL", async () => {
    const max = daemon.ledger.reader.maxSequence(sessionId);
    const fence = streamSearchParams(daemon.ledger.reader.historyVersion(sessionId));
    const stream = await openSse(`${streamUrl}?after_sequence=0&${fence}`, {
      "Last-Event-ID": String(max),
    });
    const first = await stream.waitFor(() => true);
    expect(first.event).toBe("transcript_delta");
    expect(TranscriptDeltaEvent.parse(JSON.parse(first.data)).entries).toEqual([]);
    stream.close();
  });

  it("when nothing happens, then keepalive comments flow", async () => {
    const stream = await openSse(streamUrl);
    await stream.waitFor(() => true);
    await expect
      .poll(() => stream.comments.filter((c) => c === "keepalive").length, { timeout: 5_000 })
      .toBeGreaterThanOrEqual(2);
    stream.close();
  });

  it("when a stream is asked with a bad cursor or for an unknown session, then 400 / 404 envelopes", async () => {
    expect((await fetch(`${streamUrl}?after_sequence=-1`)).status).toBe(400);
    expect((await fetch(`${streamUrl}?cursor=1`)).status).toBe(400);
    expect((await fetch(`${streamUrl}?frames=raw`)).status).toBe(400);
    expect((await fetch(`${streamUrl}?epoch=-1`)).status).toBe(400);
    expect((await fetch(`${streamUrl}?generation=x`)).status).toBe(400);
    expect((await fetch(streamUrl, { headers: { "Last-Event-ID": "abc" } })).status).toBe(400);
    expect((await fetch(`${base}${daemon.sessionPath("ses_nope")}/stream`)).status).toBe(404);
  });

  it("when a client goes away, then it is unsubscribed", async () => {
    const stream = await openSse(streamUrl);
    await stream.waitFor(() => true);
    expect(daemon.streams.subscriberCount(sessionId)).toBe(1);
    stream.close();
    await promptAndWait("after the client left");
    await expect.poll(() => daemon.streams.subscriberCount(sessionId)).toBe(0);
  });
});

describe("a stopped session's stream", () => {
  it("when the session stops, then session_stopped ends the stream; reopening sends it at once", async () => {
    const daemon = await startTestDaemon();
    try {
      const base = await daemon.listen();
      const session = await daemon.createActiveSession();
      const url = `${base}${daemon.sessionPath(session.id)}/stream`;
      const stream = await openSse(url);
      await stream.waitFor((e) => e.event === "session_commands_changed");
      expect((await daemon.call("POST", `${daemon.sessionPath(session.id)}/stop`)).status).toBe(
        204,
      );
      const stopped = await stream.waitFor((e) => e.event === "session_stopped");
      expect(SessionStoppedEvent.parse(JSON.parse(stopped.data))).toMatchObject({
        session_id: session.id,
        type: "session_stopped",
        turn_id: "",
        stop_reason: "user_canceled",
      });
      await stream.ended;
      // The last transcript change (the stopped state) came before the stop frame.
      const last = deltas(stream).at(-1);
      expect(Number(last?.id)).toBe(daemon.ledger.reader.maxSequence(session.id));

      const again = await openSse(url);
      await again.ended;
      expect(again.events.map((e) => e.event)).toEqual([
        "transcript_snapshot",
        "session_commands_changed",
        "session_stopped",
      ]);
    } finally {
      await daemon.stop();
    }
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
      // Active, as far as the ledger says: a stopped session's stream would end at once.
      daemon.ledger.recorder.recordState(session.id, "active");
      const path = `${daemon.sessionPath(session.id)}/stream`;
      const socket = connect(Number(base.port), "127.0.0.1");
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${base.host}\r\n\r\n`);
      socket.pause();
      const closed = new Promise((resolve) => socket.once("close", resolve));
      await expect.poll(() => daemon.streams.subscriberCount(session.id)).toBe(1);

      const big = "x".repeat(64 * 1024);
      // Until the client is dropped: the kernel takes some megabytes before the daemon holds any.
      for (let i = 0; i < 1000 && daemon.streams.subscriberCount(session.id) > 0; i += 1) {
        daemon.ledger.recorder.recordUpdate(session.id, "t1", {
          sessionUpdate: "tool_call",
          toolCallId: `call-${i}`,
          title: "Read a big file",
          rawInput: { big },
        });
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      socket.resume();
      await closed;
      expect(daemon.streams.subscriberCount(session.id)).toBe(0);

      const resumed = await openSse(`${base.origin}${path}?after_sequence=0&limit=1000`);
      const delta = TranscriptSnapshotEvent.parse(
        JSON.parse((await resumed.waitFor(() => true)).data),
      );
      expect(delta.entries.length).toBe(
        daemon.ledger.reader.transcriptPage(session.id, { limit: 1000 }).entries.length,
      );
      resumed.close();
    } finally {
      await daemon.stop();
    }
  }, 30_000);
});

describe("a message that keeps growing", () => {
  it("when chunks arrive tick after tick, then its deltas are paced (ADR 0147) and the last one carries the whole text", async () => {
    const daemon = await startTestDaemon({ agents: [] });
    try {
      const base = await daemon.listen();
      const session = daemon.ledger.store.createSession({
        workspaceId: daemon.ws,
        agentName: "none",
      });
      daemon.ledger.recorder.recordState(session.id, "active");
      const stream = await openSse(`${base}${daemon.sessionPath(session.id)}/stream`);
      await stream.waitFor((e) => e.event === "transcript_snapshot");
      const chunk = (text: string) =>
        daemon.ledger.recorder.recordUpdate(session.id, "t1", {
          sessionUpdate: "agent_message_chunk",
          messageId: "long",
          content: { type: "text", text },
        });
      chunk("start ");
      const first = await stream.waitFor((e) => e.event === "transcript_delta");
      // Ten more chunks, each in its own event-loop turn: unpaced, each would be a delta.
      let expected = "start ";
      for (let i = 0; i < 10; i += 1) {
        chunk(`c${i} `);
        expected += `c${i} `;
        await new Promise((resolve) => setImmediate(resolve));
      }
      const last = await stream.waitFor(
        (e) => e.event === "transcript_delta" && e.data.includes("c9 "),
        5000,
      );
      const sent = deltas(stream);
      expect(sent.length).toBeLessThanOrEqual(3);
      expect(last.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(40);
      const text = sent.at(-1)?.data.entries[0]?.message.parts[0];
      expect(text).toMatchObject({ type: "text", text: expected });
      stream.close();
    } finally {
      await daemon.stop();
    }
  });
});
