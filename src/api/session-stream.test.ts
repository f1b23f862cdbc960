// @vitest-environment jsdom
import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Entry } from "../contract/transcript";
import { sessionEnvelope } from "../testing/sessions";
import { sessionQueries } from "./session-queries";
import { type EventSourceLike, SessionStream } from "./session-stream";
import type { TranscriptData } from "./transcript-cache";
import { transcriptQueries } from "./transcript-queries";

class FakeEventSource implements EventSourceLike {
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private readonly handlers = new Map<string, ((event: MessageEvent) => void)[]>();
  readonly url: string;
  constructor(url: string) {
    this.url = url;
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void): void {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), listener]);
  }
  close(): void {
    this.closed = true;
  }
  open(): void {
    this.onopen?.(new Event("open"));
  }
  drop(): void {
    this.onerror?.(new Event("error"));
  }
  emit(type: string, data: unknown): void {
    this.emitText(type, JSON.stringify(data));
  }
  emitText(type: string, data: string): void {
    const event = new MessageEvent(type, { data });
    for (const handler of this.handlers.get(type) ?? []) handler(event);
  }
}

const ref = { workspaceId: "w1", sessionId: "s1" };
const key = transcriptQueries.key("s1");

function entry(start: number, sequence = start): Entry {
  return {
    start_sequence: start,
    sequence,
    message: { id: `m${start}`, role: "user", parts: [{ type: "text", id: "p", text: "hi" }] },
  };
}

const snapshot = (entries: Entry[], max: number, epoch = 1) => ({
  session_id: "s1",
  epoch,
  generation: 0,
  entries,
  max_sequence: max,
  has_older: false,
  reset: false,
});
const delta = (entries: unknown[], cursor: number, epoch = 1) => ({
  session_id: "s1",
  epoch,
  generation: 0,
  entries,
  cursor,
  max_sequence: cursor,
  has_more: false,
});

/** The daemon's `session_stopped` for s1, as it ends the stream. */
const stoppedFrame = {
  id: "evt-9",
  session_id: "s1",
  sequence: 9,
  turn_id: "",
  type: "session_stopped",
  agent_name: "demo",
  content: { type: "session_stopped", stop_reason: "idle_timeout" },
  timestamp: "2026-01-01T00:01:00Z",
};

/** The transcript page the page's first read brings, held as the SPA's cache holds it. */
const heldPage = (entries: Entry[], cursor: number, epoch = 1, generation = 0): TranscriptData => ({
  epoch,
  generation,
  entries,
  cursor,
  hasOlder: false,
  nextBeforeSequence: undefined,
});

/** The first transcript read in flight; it lands with the page the test gives. */
function firstReadInFlight(): (page: TranscriptData) => void {
  let land: (page: TranscriptData) => void = () => {};
  void client.prefetchQuery({
    queryKey: key,
    queryFn: () => new Promise<TranscriptData>((resolve) => (land = resolve)),
  });
  return (page) => land(page);
}

let sources: FakeEventSource[];
let client: QueryClient;
let stream: SessionStream;
const last = () => sources.at(-1)!;

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, "warn").mockImplementation(() => {});
  sources = [];
  client = new QueryClient();
  stream = new SessionStream(
    client,
    ref,
    (url) => {
      const source = new FakeEventSource(url);
      sources.push(source);
      return source;
    },
    () => 1,
    // Deltas fold at once here; the per-frame batching has its own test below.
    (flush) => {
      flush();
      return () => {};
    },
  );
});

afterEach(() => {
  stream.stop();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("SessionStream", () => {
  it("when deltas stream in, then they fold into at most one cache write per frame, in order", () => {
    const frames: (() => void)[] = [];
    const batched = new SessionStream(
      client,
      ref,
      (url) => {
        const source = new FakeEventSource(url);
        sources.push(source);
        return source;
      },
      () => 1,
      (flush) => {
        frames.push(flush);
        return () => frames.splice(frames.indexOf(flush), 1);
      },
    );
    batched.start();
    last().open();
    last().emit("transcript_snapshot", snapshot([entry(1)], 1));
    const writes = vi.fn();
    const unsubscribe = client.getQueryCache().subscribe((event) => {
      if (event.type === "updated") writes();
    });
    // A growing reply: each delta carries the whole message so far.
    last().emit("transcript_delta", delta([entry(2, 2)], 2));
    last().emit("transcript_delta", delta([entry(2, 3)], 3));
    last().emit("transcript_delta", delta([entry(2, 4), entry(5)], 5));
    expect(client.getQueryData<TranscriptData>(key)?.entries).toHaveLength(1);
    expect(frames).toHaveLength(1);
    frames.shift()?.();
    expect(writes).toHaveBeenCalledTimes(1);
    const data = client.getQueryData<TranscriptData>(key);
    expect(data?.entries.map((item) => [item.start_sequence, item.sequence])).toEqual([
      [1, 1],
      [2, 4],
      [5, 5],
    ]);
    expect(data?.cursor).toBe(5);
    // A snapshot applies the deltas received before it first; stopping keeps the rest.
    last().emit("transcript_delta", delta([entry(6)], 6));
    last().emit("transcript_snapshot", snapshot([entry(1), entry(2, 4)], 4));
    expect(client.getQueryData<TranscriptData>(key)?.entries).toHaveLength(4);
    last().emit("transcript_delta", delta([entry(7)], 7));
    batched.stop();
    expect(frames).toHaveLength(0);
    expect(client.getQueryData<TranscriptData>(key)?.cursor).toBe(7);
    unsubscribe();
  });

  it("when nothing is cached, then it asks for a snapshot and stores it", () => {
    stream.start();
    expect(last().url).toBe(
      "/api/workspaces/w1/sessions/s1/stream?frames=transcript&tideline_append=1",
    );
    expect(stream.state).toBe("connecting");
    last().open();
    expect(stream.state).toBe("open");
    last().emit("transcript_snapshot", snapshot([entry(1), entry(2)], 2));
    expect(client.getQueryData<TranscriptData>(key)?.entries).toHaveLength(2);
  });

  it("when the first page is still being read as it starts, then it opens once the page is held, after it: no snapshot of the same entries", async () => {
    const land = firstReadInFlight();
    stream.start();
    expect(sources).toHaveLength(0);
    land(heldPage([entry(1), entry(2)], 2, 3, 1));
    await vi.advanceTimersByTimeAsync(0);
    expect(sources).toHaveLength(1);
    expect(last().url).toContain("after_sequence=2&epoch=3&generation=1");
  });

  it("when it is stopped while the first page is read, then it never opens", async () => {
    const land = firstReadInFlight();
    stream.start();
    stream.stop();
    land(heldPage([], 0));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sources).toHaveLength(0);
  });

  it("when the stream drops, then it reconnects with backoff from its cursor and nothing is duplicated", () => {
    stream.start();
    last().open();
    last().emit("transcript_snapshot", snapshot([entry(1), entry(2)], 2));
    last().emit("transcript_delta", delta([entry(2, 5), entry(6)], 6));
    const invalidate = vi.spyOn(client, "invalidateQueries");

    const dropped = last();
    dropped.drop();
    expect(dropped.closed).toBe(true);
    expect(stream.state).toBe("reconnecting");
    vi.advanceTimersByTime(499);
    expect(sources).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(last().url).toBe(
      "/api/workspaces/w1/sessions/s1/stream?frames=transcript&after_sequence=6&epoch=1&generation=0&tideline_append=1",
    );

    last().open();
    expect(stream.state).toBe("open");
    const keys = invalidate.mock.calls.map(([filters]) => filters?.queryKey);
    expect(keys).toContainEqual(["sessions", "usage", "s1"]);
    expect(keys).toContainEqual(["sessions", "usage-turns", "s1"]);

    last().emit("transcript_delta", delta([entry(6), entry(7)], 7));
    const data = client.getQueryData<TranscriptData>(key);
    expect(data?.entries.map((e) => [e.start_sequence, e.sequence])).toEqual([
      [1, 1],
      [2, 5],
      [6, 6],
      [7, 7],
    ]);
    expect(data?.cursor).toBe(7);
  });

  it("when failures repeat, then the delay grows to at most 8 s", () => {
    stream.start();
    for (const delay of [500, 1000, 2000, 4000, 8000, 8000]) {
      last().drop();
      const before = sources.length;
      vi.advanceTimersByTime(delay - 1);
      expect(sources).toHaveLength(before);
      vi.advanceTimersByTime(1);
      expect(sources).toHaveLength(before + 1);
    }
  });

  it("when a delta carries a new epoch, then the cache is replaced from a fresh snapshot", () => {
    stream.start();
    last().open();
    last().emit("transcript_snapshot", snapshot([entry(1), entry(2)], 2));
    last().emit("transcript_delta", delta([entry(3)], 3, 2));
    vi.advanceTimersByTime(0);
    expect(last().url).not.toContain("after_sequence");
    last().open();
    last().emit("transcript_snapshot", snapshot([entry(1)], 1, 2));
    const data = client.getQueryData<TranscriptData>(key);
    expect(data).toMatchObject({ epoch: 2, cursor: 1 });
    expect(data?.entries).toHaveLength(1);
  });

  it("when an entry is malformed, then it becomes an unsupported row and the rest is kept", () => {
    stream.start();
    last().emit("transcript_snapshot", snapshot([entry(1)], 1));
    last().emit(
      "transcript_delta",
      delta([{ start_sequence: 2, sequence: 2, message: 7 }, entry(3)], 3),
    );
    const entries = client.getQueryData<TranscriptData>(key)?.entries ?? [];
    expect(entries.map((e) => e.start_sequence)).toEqual([1, 2, 3]);
    expect(entries[1]?.message.parts[0]).toMatchObject({
      type: "unsupported",
      original_type: "entry",
    });
  });

  it("when transcript frames arrive, then the session and both usage queries are re-read, at most once a second", () => {
    // CompozyOS's stream carries only the transcript: activity and usage are re-read.
    const invalidate = vi.spyOn(client, "invalidateQueries");
    stream.start();
    last().open();
    last().emit("transcript_snapshot", snapshot([entry(1)], 1));
    for (let sequence = 2; sequence < 12; sequence += 1) {
      last().emit("transcript_delta", delta([entry(sequence)], sequence));
    }
    expect(invalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    const keys = invalidate.mock.calls.map(([filters]) => filters?.queryKey);
    expect(keys).toEqual([
      ["sessions", "usage", "s1"],
      ["sessions", "usage-turns", "s1"],
      sessionQueries.detail(ref).queryKey,
    ]);
    // The last frame of a turn is always followed by a read.
    last().emit("transcript_delta", delta([entry(12)], 12));
    vi.advanceTimersByTime(1_000);
    expect(invalidate).toHaveBeenCalledTimes(6);
  });

  it("when a session fetch started before the turn's last frame lands after it, then the newer session stays", async () => {
    const base = {
      id: "s1",
      workspace_id: "w1",
      agent_name: "demo",
      state: "active" as const,
      available_commands: [],
      created_at: "2026-01-01T00:00:00Z",
      updated_at: "2026-01-01T00:00:00Z",
    };
    const running = { ...base, activity: { turn_id: "t1" } };
    const detailKey = sessionQueries.detail(ref).queryKey;
    const answers: ((value: { session: typeof running | typeof base }) => void)[] = [];
    client.setQueryData(detailKey, { session: running });
    // The page's session query, observing it as the composer and the rail do.
    const observer = new QueryObserver(client, {
      queryKey: detailKey,
      queryFn: () => new Promise((resolve) => answers.push(resolve)),
      staleTime: Number.POSITIVE_INFINITY,
    });
    const unsubscribe = observer.subscribe(() => {});
    // A refetch (say, after Send) that the daemon answers while the turn still runs…
    const inFlight = client.refetchQueries({ queryKey: detailKey });
    stream.start();
    last().open();
    last().emit("transcript_snapshot", snapshot([entry(1)], 1));
    // …then the turn's last frame; the re-read it causes replaces the stale one.
    last().emit("transcript_delta", delta([entry(2)], 2));
    vi.advanceTimersByTime(1_000);
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[0]?.({ session: running });
    answers[1]?.({ session: base });
    await inFlight.catch(() => undefined);
    await vi.waitFor(() => expect(client.getQueryData(detailKey)).toEqual({ session: base }));
    unsubscribe();
  });

  it("when stream frames arrive during the session list's first fetch, then that fetch still lands", async () => {
    // Seen as a sidebar stuck on "Loading sessions…" for 5 s: a stream event cancelled the
    // list's first fetch, and with no data to revert to it stayed pending until the poll.
    const list = {
      sessions: [],
      page: { has_more: false, limit: 100, total: 0 },
    };
    let answer: (value: typeof list) => void = () => {};
    const listKey = sessionQueries.list().queryKey;
    const first = client.fetchQuery({
      queryKey: listKey,
      queryFn: () => new Promise<typeof list>((resolve) => (answer = resolve)),
    });
    stream.start();
    last().open();
    last().emit("transcript_snapshot", snapshot([entry(1)], 1));
    vi.advanceTimersByTime(300);
    answer(list);
    await first;
    expect(client.getQueryData(listKey)).toEqual(list);
  });

  it("when a token is set, then it rides in the stream URL", () => {
    window.sessionStorage.setItem("tideline.token", "sekret");
    stream.start();
    expect(last().url).toContain("access_token=sekret");
    window.sessionStorage.removeItem("tideline.token");
  });

  it("when stopped, then the source is closed and no reconnect is scheduled", () => {
    stream.start();
    const source = last();
    stream.stop();
    source.drop();
    vi.advanceTimersByTime(10_000);
    expect(source.closed).toBe(true);
    expect(sources).toHaveLength(1);
  });
  it("when it reconnects, then it resumes behind the epoch/generation fence of what it holds", () => {
    stream.start();
    last().open();
    last().emit("transcript_snapshot", { ...snapshot([entry(1)], 1, 7), generation: 2 });
    last().emit("transcript_delta", { ...delta([entry(4)], 4, 7), generation: 2 });
    last().drop();
    vi.advanceTimersByTime(500);
    const url = new URL(last().url, "http://x");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      frames: "transcript",
      after_sequence: "4",
      epoch: "7",
      generation: "2",
      tideline_append: "1",
    });
  });

  it("when a reset snapshot arrives, then it replaces the cache instead of merging into it", () => {
    stream.start();
    last().open();
    last().emit("transcript_snapshot", snapshot([entry(1), entry(2), entry(3)], 3));
    // Same fence, but the daemon says the history was rewritten (a sequence reset).
    last().emit("transcript_snapshot", {
      ...snapshot([entry(10)], 10),
      reset: true,
      reason: "sequence_reset",
    });
    const data = client.getQueryData<TranscriptData>(key);
    expect(data?.entries.map((e) => e.start_sequence)).toEqual([10]);
    expect(data?.cursor).toBe(10);
    // Without `reset` a snapshot still merges.
    last().emit("transcript_snapshot", { ...snapshot([entry(11)], 11), reset: false });
    expect(client.getQueryData<TranscriptData>(key)?.entries).toHaveLength(2);
  });

  it("when the daemon accepts and at once closes, again and again, then the delay still grows", () => {
    stream.start();
    const delays: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      last().open();
      last().drop();
      const before = sources.length;
      let waited = 0;
      while (sources.length === before && waited < 20_000) {
        vi.advanceTimersByTime(50);
        waited += 50;
      }
      delays.push(waited);
    }
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000]);
  });

  it("when a connection stayed open 8 s before dropping, then the next delay starts small again", () => {
    stream.start();
    for (let round = 0; round < 3; round += 1) {
      last().drop();
      vi.advanceTimersByTime(10_000);
    }
    last().open();
    vi.advanceTimersByTime(8_000);
    const before = sources.length;
    last().drop();
    vi.advanceTimersByTime(500);
    expect(sources).toHaveLength(before + 1);
  });

  it("when the session stops, then the stream ends, nothing reconnects and the session reads stopped", () => {
    const detailKey = sessionQueries.detail(ref).queryKey;
    client.setQueryData(detailKey, sessionEnvelope("active"));
    stream.start();
    last().open();
    last().emit("transcript_snapshot", snapshot([entry(1)], 1));
    const ended = last();
    ended.emit("session_stopped", stoppedFrame);
    // The daemon then closes; EventSource reports that as an error.
    ended.drop();
    vi.advanceTimersByTime(120_000);
    expect(ended.closed).toBe(true);
    expect(sources).toHaveLength(1);
    expect(stream.state).toBe("stopped");
    expect(client.getQueryData(detailKey)?.session.state).toBe("stopped");

    // A prompt resumed it: the page wakes the stream, which resumes behind its fence.
    stream.wake();
    expect(sources).toHaveLength(2);
    expect(last().url).toContain("after_sequence=1&epoch=1&generation=0");
  });

  it("when the session was read as stopped already, then the session_stopped its stream ends with re-reads nothing", () => {
    const detailKey = sessionQueries.detail(ref).queryKey;
    client.setQueryData(detailKey, sessionEnvelope("stopped"));
    client.setQueryData<TranscriptData>(key, heldPage([entry(1)], 1));
    const invalidate = vi.spyOn(client, "invalidateQueries");
    stream.start();
    last().open();
    last().emit("transcript_delta", delta([], 1));
    last().emit("session_stopped", stoppedFrame);
    last().drop();
    vi.advanceTimersByTime(120_000);
    expect(stream.state).toBe("stopped");
    expect(sources).toHaveLength(1);
    expect(invalidate).not.toHaveBeenCalled();
  });

  it("when the daemon sends done (shutdown), then the stream is terminal as on CompozyOS's web: closed, stopped, no reconnect until woken", () => {
    const detailKey = sessionQueries.detail(ref).queryKey;
    client.setQueryData(detailKey, sessionEnvelope("active"));
    stream.start();
    last().open();
    last().emit("transcript_snapshot", snapshot([entry(1)], 1));
    const ended = last();
    // CompozyOS's `done` carries no payload a client may rely on: even an empty one ends it.
    ended.emitText("done", "");
    ended.drop();
    vi.advanceTimersByTime(120_000);
    expect(ended.closed).toBe(true);
    expect(sources).toHaveLength(1);
    expect(stream.state).toBe("stopped");
    expect(client.getQueryData(detailKey)?.session.state).toBe("stopped");
    stream.wake();
    expect(sources).toHaveLength(2);
  });

  it("when the command catalog changes, then the session is read again", () => {
    const invalidate = vi.spyOn(client, "invalidateQueries");
    stream.start();
    last().emit("session_commands_changed", { session_id: "s1", revision: "r2" });
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toContainEqual(
      sessionQueries.detail(ref).queryKey,
    );
  });
});

describe("SessionStream with append frames (ADR 0200)", () => {
  const textOf = (start: number) => {
    const held = client
      .getQueryData<TranscriptData>(key)
      ?.entries.find((item) => item.start_sequence === start);
    const part = held?.message.parts[0];
    return part?.type === "text" ? part.text : undefined;
  };
  const append = (sequence: number, offset: number, text: string, cursor?: number) => ({
    start_sequence: 2,
    sequence,
    part: 0,
    offset,
    text,
    ...(cursor === undefined ? {} : { cursor }),
  });

  function opened() {
    stream.start();
    last().open();
    last().emit("transcript_snapshot", snapshot([entry(1), entry(2)], 2));
  }

  it("when appends arrive, then the entry's text grows and the cursor moves with the batch's last frame", () => {
    opened();
    last().emit("entry_append", append(3, 2, " there"));
    expect(textOf(2)).toBe("hi there");
    expect(client.getQueryData<TranscriptData>(key)?.cursor).toBe(2);
    last().emit("entry_append", append(4, 8, " 🌊", 5));
    expect(textOf(2)).toBe("hi there 🌊");
    const data = client.getQueryData<TranscriptData>(key);
    expect(data?.cursor).toBe(5);
    expect(data?.entries.find((item) => item.start_sequence === 2)?.sequence).toBe(4);
    // Already held (an older or equal sequence): nothing changes, nothing is missed.
    last().emit("entry_append", append(4, 8, "again", 5));
    expect(textOf(2)).toBe("hi there 🌊");
    expect(last().closed).toBe(false);
  });

  it("when a tool's output string grows, then it grows at its path and the rest is kept", () => {
    stream.start();
    last().open();
    const tool: Entry = {
      start_sequence: 3,
      sequence: 3,
      message: {
        id: "t",
        role: "assistant",
        parts: [
          {
            type: "tool-execute",
            toolCallId: "t1",
            state: "input-available",
            input: {},
            output: { terminals: { a: { output: "1\n", truncated: false } } },
          },
        ],
      },
    };
    last().emit("transcript_snapshot", snapshot([tool], 3));
    last().emit("entry_append", {
      start_sequence: 3,
      sequence: 4,
      part: 0,
      path: ["output", "terminals", "a", "output"],
      offset: 2,
      text: "2\n",
      cursor: 4,
    });
    const part = client.getQueryData<TranscriptData>(key)?.entries[0]?.message.parts[0];
    expect(part).toMatchObject({
      state: "input-available",
      output: { terminals: { a: { output: "1\n2\n", truncated: false } } },
    });
  });

  it("when an append does not fit what is held, then what came before is kept and a snapshot is read, with backoff", () => {
    opened();
    last().emit("entry_append", append(3, 2, " there"));
    last().emit("entry_append", append(5, 99, "lost", 5));
    expect(textOf(2)).toBe("hi there");
    expect(last().closed).toBe(true);
    expect(stream.state).toBe("reconnecting");
    expect(sources).toHaveLength(1);
    vi.advanceTimersByTime(500);
    expect(sources).toHaveLength(2);
    expect(last().url).not.toContain("after_sequence");
    last().open();
    last().emit("transcript_snapshot", {
      ...snapshot(
        [
          entry(1),
          {
            ...entry(2, 5),
            message: { ...entry(2).message, parts: [{ type: "text", text: "hi there lost" }] },
          },
        ],
        5,
      ),
    });
    expect(textOf(2)).toBe("hi there lost");
  });

  it("when hostile or malformed append frames arrive, then each is a gap: nothing is applied and a snapshot is read", () => {
    const hostile: [string, unknown][] = [
      ["no text", { start_sequence: 2, sequence: 3, part: 0, offset: 2 }],
      ["empty text", append(3, 2, "")],
      ["negative offset", append(3, -1, "x")],
      ["fractional offset", append(3, 1.5, "x")],
      ["a string offset", { ...append(3, 2, "x"), offset: "2" }],
      ["a negative part", { ...append(3, 2, "x"), part: -1 }],
      ["a part far beyond", { ...append(3, 2, "x"), part: 1e9 }],
      ["an unknown field", { ...append(3, 2, "x"), extra: true }],
      ["a prototype path", { ...append(3, 2, "x"), path: ["__proto__", "polluted"] }],
      ["a constructor path", { ...append(3, 2, "x"), path: ["constructor", "prototype"] }],
      ["an empty path", { ...append(3, 2, "x"), path: [] }],
      ["a path too deep", { ...append(3, 2, "x"), path: Array(9).fill("a") }],
      ["a path to no string", { ...append(3, 2, "x"), path: ["type", "x"] }],
      ["a path to a missing key", { ...append(3, 0, "x"), path: ["nope"] }],
      ["a part that is not there", { ...append(3, 0, "x"), part: 3 }],
      ["an entry that is not held", { ...append(3, 2, "x"), start_sequence: 42 }],
      ["the wrong length", append(3, 3, "x")],
      ["a string cursor", { ...append(3, 2, "x"), cursor: "9" }],
      ["an array", [append(3, 2, "x")]],
      ["null", null],
    ];
    for (const [what, payload] of hostile) {
      sources = [];
      client.clear();
      stream.stop();
      opened();
      last().emit("entry_append", payload);
      expect(textOf(2), what).toBe("hi");
      expect(last().closed, what).toBe(true);
      vi.advanceTimersByTime(8_000);
      expect(last().url, what).not.toContain("after_sequence");
    }
    sources = [];
    stream.stop();
    opened();
    last().emitText("entry_append", "{not json");
    expect(last().closed).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
