// One piece: the stream's cursor, replay, pacing, fan-out and append batching share one
// per-session state; splitting them would spread that state across modules (ADRs 0118,
// 0147, 0200). What an append is lives in `stream-appends.ts`.
// The live session stream (`…/stream?frames=transcript`, text/event-stream), as CompozyOS
// serves it (internal/api/core/session_stream*.go).
//
// Consistency comes from one rule: a subscriber's cursor is the highest ledger sequence
// whose entry changes it has been sent. Connecting reads the snapshot (or the catch-up
// delta) and registers the cursor in the same synchronous step, so no commit can fall in
// between. Commits only mark a session dirty; one flush per event-loop turn then sends each
// subscriber `entriesChangedAfter(cursor)` and moves the cursor to the session's max
// sequence. A reconnect with that cursor (`after_sequence` or `Last-Event-ID`) and the
// epoch/generation fence therefore gets every change once; without the fence, or with one
// that no longer matches, it gets a reset snapshot with the reason. Bursts of commits
// coalesce into one delta. After the frames of a change, a changed command catalog sends
// `session_commands_changed`, and a stopped session `session_stopped`, which ends the stream.
//
// A client that asked for them (`tideline_append`) gets `entry_append` frames for entries
// that only grew at their end (ADR 0200); every other client gets exactly the frames above.
//
// Each subscriber has its own outgoing queue; a client that stops reading falls behind
// so that what it has not taken yet, before the newest frame, passes `maxQueuedBytes`, and
// is disconnected (it resumes with its cursor).
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { z } from "zod";
import type { ErrorEnvelope } from "../../src/contract/error";
import type { DaemonSession } from "../../src/contract/session";
import {
  APPEND_QUERY,
  DaemonTranscriptDeltaEvent,
  DaemonTranscriptSnapshotEvent,
  EntryAppendEvent,
  SessionCommandsChangedEvent,
  SessionStoppedEvent,
  type SnapshotReason,
  STREAM_EVENTS,
  type StreamEventName,
  StreamQuery,
} from "../../src/contract/stream";
import { type DaemonEntry, TRANSCRIPT_DEFAULT_LIMIT } from "../../src/contract/transcript";
import { commandsRevision, type SessionHost } from "../acp/session-host";
import type {
  CommitNotice,
  SessionReader,
  SessionRecorder,
  SessionStore,
} from "../domain/session-recorder-api";
import { invalidRequest, notFound } from "./api-error";
import { parseQuery } from "./request-parsing";
import {
  type AppendPlan,
  type AppendState,
  appendData,
  createAppendState,
  createPlanner,
  rememberEntries,
} from "./stream-appends";

/** The shortest gap between two deltas of one session (at most 20 a second). */
export const MIN_DELTA_INTERVAL_MS = 50;
/** What one session's deltas may send per second, whatever the size of its entries. */
export const DELTA_BYTES_PER_SECOND = 4 * 1024 * 1024;

export const DEFAULT_MAX_QUEUED_BYTES = 8 * 1024 * 1024;

/**
 * Append frames (ADR 0200): a batch of appends only is held back, up to `APPEND_HOLD_MS`,
 * until its frames weigh at most `APPEND_FRAME_RATIO` times the text they carry, so a
 * trickle of small chunks does not cost more envelope than text.
 */
export const APPEND_HOLD_MS = 1_000;
export const APPEND_FRAME_RATIO = 1.5;
/** Finding an append compares the grown string: at most this many characters a second. */
export const APPEND_COMPARE_CHARS_PER_SECOND = 64 * 1024 * 1024;

export type StreamHubDeps = {
  store: SessionStore;
  reader: SessionReader;
  recorder: SessionRecorder;
  host: SessionHost;
  keepaliveMs: number;
  maxQueuedBytes?: number;
  validate: boolean;
  log: (line: string) => void;
};

type Subscriber = {
  cursor: number;
  /** Set when the client asked for append frames; what it holds. */
  appends: AppendState | undefined;
  /** The command catalog revision this subscriber was last told about. */
  revision: string;
  enqueue(frame: string): void;
  /** Ends the stream once what is queued has been written. */
  close(): void;
};

type Pending = { sessionChanged: boolean };

/** CompozyOS's reconnect check (session_stream_snapshot.go transcriptReconnectResetReason). */
export function resetReason(
  cursor: number,
  fence: { epoch?: number | undefined; generation?: number | undefined },
  current: { epoch: number; generation: number; maxSequence: number },
): SnapshotReason | undefined {
  if (cursor === 0) return undefined;
  if (fence.epoch === undefined || fence.generation === undefined) return "fence_missing";
  if (fence.epoch !== current.epoch) return "epoch_mismatch";
  if (fence.generation !== current.generation) return "generation_mismatch";
  if (cursor > current.maxSequence) return "sequence_reset";
  return undefined;
}

/** A session event without content, as CompozyOS writes `session_stopped`. */
export function stoppedEvent(session: DaemonSession) {
  return {
    id: "",
    session_id: session.id,
    sequence: 0,
    turn_id: "",
    type: "session_stopped" as const,
    agent_name: session.agent_name,
    workspace_id: session.workspace_id,
    ...(session.workspace_path === undefined ? {} : { workspace_path: session.workspace_path }),
    spawn_depth: 0,
    content: null,
    ...(session.stop_reason === undefined ? {} : { stop_reason: session.stop_reason }),
    ...(session.stop_detail === undefined ? {} : { stop_detail: session.stop_detail }),
    timestamp: session.updated_at,
  };
}

export function formatEvent(event: StreamEventName, data: unknown, id?: number): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n${id === undefined ? "" : `id: ${id}\n`}\n`;
}

function parseLastEventId(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  if (!/^\d{1,15}$/.test(value.trim())) {
    throw invalidRequest("invalid Last-Event-ID", { "Last-Event-ID": "must be a sequence" });
  }
  return Number(value.trim());
}

/**
 * An EventSource reconnecting on its own repeats its URL (with the cursor it was opened
 * with) and adds the id of the last event it got: that one is newer, and resuming from the
 * older cursor would send again what the client already has.
 */
function resumeCursor(fromQuery: number | undefined, fromHeader: number | undefined) {
  if (fromQuery === undefined) return fromHeader;
  if (fromHeader === undefined) return fromQuery;
  return Math.max(fromQuery, fromHeader);
}

/**
 * The node response behind a request, when served by @hono/node-server (absent in-process):
 * `writableLength` is what it holds that the client has not taken yet.
 */
function socketOf(c: Context): { destroy(): void; readonly writableLength?: number } | undefined {
  const env: unknown = c.env;
  if (typeof env !== "object" || env === null || !("outgoing" in env)) return undefined;
  const outgoing: unknown = env.outgoing;
  return typeof outgoing === "object" && outgoing !== null && "destroy" in outgoing
    ? (outgoing as { destroy(): void; readonly writableLength?: number })
    : undefined;
}

export type StreamHub = ReturnType<typeof createStreamHub>;

export function createStreamHub(deps: StreamHubDeps) {
  const { reader, host, log } = deps;
  const maxQueuedBytes = deps.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
  const subscribers = new Map<string, Set<Subscriber>>();
  const pending = new Map<string, Pending>();
  let flushScheduled = false;
  let closed = false;

  function check<T extends z.ZodType>(schema: T, value: unknown): void {
    if (!deps.validate) return;
    const result = schema.safeParse(value);
    if (!result.success) log(`[stream] event breaks the contract: ${result.error.message}`);
  }

  function pendingFor(sessionId: string): Pending {
    let entry = pending.get(sessionId);
    if (entry === undefined) {
      entry = { sessionChanged: false };
      pending.set(sessionId, entry);
    }
    return entry;
  }

  function scheduleFlush() {
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(flush);
  }

  function onCommit(notice: CommitNotice) {
    if (!subscribers.has(notice.sessionId)) return;
    pendingFor(notice.sessionId);
    scheduleFlush();
  }

  function onSessionChanged(sessionId: string) {
    if (!subscribers.has(sessionId)) return;
    pendingFor(sessionId).sessionChanged = true;
    scheduleFlush();
  }

  /**
   * Delta pacing (ADR 0147): a session's next delta may go out only after an interval that
   * grows with the size of the last one (≥ 50 ms, and `bytes / DELTA_BYTES_PER_SECOND`), so a
   * growing message is re-sent a bounded number of times per second and the bytes a reader
   * receives grow linearly with the message. Session frames (a stop) are never held back.
   */
  const nextDeltaAt = new Map<string, number>();
  const deferred = new Map<string, { timer: NodeJS.Timeout; at: number }>();

  /** Flushes the session again after `waitMs`, or sooner if a sooner flush is already due. */
  function deferSession(sessionId: string, waitMs: number) {
    pendingFor(sessionId);
    const at = performance.now() + waitMs;
    const existing = deferred.get(sessionId);
    if (existing !== undefined && existing.at <= at) return;
    clearTimeout(existing?.timer);
    const timer = setTimeout(
      () => {
        deferred.delete(sessionId);
        scheduleFlush();
      },
      Math.max(1, Math.ceil(waitMs)),
    );
    timer.unref();
    deferred.set(sessionId, { timer, at });
  }

  function forgetPacing(sessionId: string) {
    nextDeltaAt.delete(sessionId);
    clearTimeout(deferred.get(sessionId)?.timer);
    deferred.delete(sessionId);
  }

  function flush() {
    flushScheduled = false;
    const work = [...pending];
    pending.clear();
    const now = performance.now();
    for (const [sessionId, entry] of work) {
      const subs = subscribers.get(sessionId);
      if (subs === undefined || subs.size === 0) continue;
      const due = nextDeltaAt.get(sessionId) ?? 0;
      if (!entry.sessionChanged && now < due) {
        deferSession(sessionId, due - now);
        continue;
      }
      try {
        flushSession(sessionId, subs, entry);
      } catch (error) {
        log(`[stream] ${sessionId}: flush failed: ${error instanceof Error ? error.stack : error}`);
        const envelope: ErrorEnvelope = { error: "stream failed", code: "internal" };
        for (const sub of subs) {
          sub.enqueue(formatEvent(STREAM_EVENTS.error, envelope));
          sub.close();
        }
      }
    }
  }

  function deltaData(
    sessionId: string,
    cursor: number,
    maxSequence: number,
    entries: DaemonEntry[] = reader.entriesChangedAfter(sessionId, cursor),
  ) {
    const data = {
      session_id: sessionId,
      workspace_id: deps.store.getSession(sessionId)?.workspace_id ?? "",
      ...reader.historyVersion(sessionId),
      entries,
      cursor: Math.max(cursor, maxSequence),
      max_sequence: maxSequence,
      has_more: false,
    };
    check(DaemonTranscriptDeltaEvent, data);
    return data;
  }

  /** What follows the transcript frames: a changed catalog, and a stop that ends it all. */
  function sessionFrames(session: DaemonSession, sub: Subscriber): string {
    let frames = "";
    const revision = commandsRevision(session.available_commands);
    if (revision !== sub.revision) {
      sub.revision = revision;
      const data = { session_id: session.id, revision };
      check(SessionCommandsChangedEvent, data);
      frames += formatEvent(STREAM_EVENTS.commandsChanged, data);
    }
    if (session.state === "stopped") {
      const data = stoppedEvent(session);
      check(SessionStoppedEvent, data);
      frames += formatEvent(STREAM_EVENTS.sessionStopped, data);
    }
    return frames;
  }

  function flushSession(sessionId: string, subs: Set<Subscriber>, entry: Pending) {
    const maxSequence = reader.maxSequence(sessionId);
    const behind = new Map<number, Subscriber[]>();
    for (const sub of subs) {
      if (sub.cursor >= maxSequence) continue;
      const group = behind.get(sub.cursor) ?? [];
      group.push(sub);
      behind.set(sub.cursor, group);
    }
    let largest = 0;
    let compared = 0;
    for (const [cursor, group] of behind) {
      const changed = reader.entriesChangedAfter(sessionId, cursor);
      const plain = group.filter((sub) => sub.appends === undefined);
      if (plain.length > 0) {
        const data = deltaData(sessionId, cursor, maxSequence, changed);
        if (data.entries.length > 0) {
          const frame = formatEvent(STREAM_EVENTS.transcriptDelta, data, data.cursor);
          largest = Math.max(largest, frame.length);
          for (const sub of plain) sub.enqueue(frame);
        }
        for (const sub of plain) sub.cursor = maxSequence;
      }
      if (plain.length === group.length) continue;
      const batch = { sessionId, cursor, maxSequence, changed, urgent: entry.sessionChanged };
      const sent = sendAppends(
        batch,
        group.filter((sub) => sub.appends !== undefined),
      );
      largest = Math.max(largest, sent.largest);
      compared = Math.max(compared, sent.compared);
    }
    if (largest > 0 || compared > 0) {
      const interval = Math.max(
        MIN_DELTA_INTERVAL_MS,
        (largest / DELTA_BYTES_PER_SECOND) * 1000,
        (compared / APPEND_COMPARE_CHARS_PER_SECOND) * 1000,
      );
      nextDeltaAt.set(sessionId, performance.now() + interval);
    }
    if (!entry.sessionChanged) return;
    const session = host.findSession(sessionId);
    for (const sub of [...subs]) {
      if (session === undefined) {
        sub.close(); // deleted
        continue;
      }
      const frames = sessionFrames(session, sub);
      if (frames !== "") sub.enqueue(frames);
      if (session.state === "stopped") sub.close();
    }
  }

  type AppendBatch = {
    sessionId: string;
    cursor: number;
    maxSequence: number;
    changed: DaemonEntry[];
    /** Session frames follow (a stop): nothing may be held back. */
    urgent: boolean;
  };

  /** One subscriber's frames for a plan: its appends, then its whole entries as a delta. */
  function appendFrames(batch: AppendBatch, plan: AppendPlan): string {
    const cursor = Math.max(batch.cursor, batch.maxSequence);
    const growths = plan.appends.flatMap(({ entry, growths }) =>
      growths.map((growth) => ({ entry, growth })),
    );
    let frames = "";
    for (const [index, { entry, growth }] of growths.entries()) {
      // Only the batch's last frame moves the client's cursor.
      const last = plan.whole.length === 0 && index === growths.length - 1;
      const data = appendData(entry, growth, last ? cursor : undefined);
      check(EntryAppendEvent, data);
      frames += formatEvent(STREAM_EVENTS.entryAppend, data, last ? cursor : undefined);
    }
    if (plan.whole.length > 0) {
      const data = deltaData(batch.sessionId, batch.cursor, batch.maxSequence, plan.whole);
      frames += formatEvent(STREAM_EVENTS.transcriptDelta, data, data.cursor);
    }
    return frames;
  }

  /**
   * Sends a batch to the subscribers that asked for appends. One plan per set of held
   * versions; a thin batch (appends only, more envelope than text) waits for more text,
   * at most `APPEND_HOLD_MS`, keeping the subscriber's cursor where it was.
   */
  function sendAppends(batch: AppendBatch, subs: Subscriber[]) {
    const plan = createPlanner(batch.changed);
    const built = new Map<string, string>();
    const now = performance.now();
    let largest = 0;
    let compared = 0;
    let holdUntil = Number.POSITIVE_INFINITY;
    for (const sub of subs) {
      const state = sub.appends as AppendState;
      const { signature, plan: planned } = plan(state);
      compared = Math.max(compared, planned.comparedChars);
      const frames = built.get(signature) ?? appendFrames(batch, planned);
      built.set(signature, frames);
      const thin =
        planned.whole.length === 0 && frames.length > APPEND_FRAME_RATIO * planned.appendedChars;
      if (thin && !batch.urgent) {
        state.heldSince ??= now;
        if (now - state.heldSince < APPEND_HOLD_MS) {
          holdUntil = Math.min(holdUntil, state.heldSince + APPEND_HOLD_MS);
          continue;
        }
      }
      state.heldSince = undefined;
      if (frames !== "") sub.enqueue(frames);
      largest = Math.max(largest, frames.length);
      rememberEntries(state, batch.changed);
      sub.cursor = batch.maxSequence;
    }
    if (holdUntil !== Number.POSITIVE_INFINITY) deferSession(batch.sessionId, holdUntil - now);
    return { largest, compared };
  }

  /** The first frames of a new subscriber: snapshot (plain or reset), or the catch-up delta. */
  function openingFrames(
    sessionId: string,
    cursor: number | undefined,
    query: {
      epoch?: number | undefined;
      generation?: number | undefined;
      limit?: number | undefined;
    },
  ) {
    const version = reader.historyVersion(sessionId);
    const maxSequence = reader.maxSequence(sessionId);
    const reason =
      cursor === undefined ? undefined : resetReason(cursor, query, { ...version, maxSequence });
    let frame: string;
    let at: number;
    let entries: DaemonEntry[];
    if (cursor === undefined || cursor === 0 || reason !== undefined) {
      const page = reader.transcriptPage(sessionId, {
        limit: query.limit ?? TRANSCRIPT_DEFAULT_LIMIT,
      });
      const data = {
        session_id: sessionId,
        workspace_id: deps.store.getSession(sessionId)?.workspace_id ?? "",
        epoch: page.epoch,
        generation: page.generation,
        entries: page.entries,
        max_sequence: page.max_sequence,
        has_older: page.has_older,
        ...(page.next_before_sequence === undefined
          ? {}
          : { next_before_sequence: page.next_before_sequence }),
        reset: reason !== undefined,
        ...(reason === undefined ? {} : { reason }),
      };
      check(DaemonTranscriptSnapshotEvent, data);
      frame = formatEvent(STREAM_EVENTS.transcriptSnapshot, data, page.max_sequence);
      at = page.max_sequence;
      entries = page.entries as DaemonEntry[]; // the reader builds pages of daemon entries
    } else {
      const data = deltaData(sessionId, cursor, maxSequence);
      frame = formatEvent(STREAM_EVENTS.transcriptDelta, data, data.cursor);
      at = data.cursor;
      entries = data.entries;
    }
    return { frame, cursor: at, entries };
  }

  const unsubscribeCommits = deps.recorder.onCommit(onCommit);
  const unsubscribeHost = host.onSessionChanged(onSessionChanged);

  return {
    /** The `GET …/stream` handler. */
    handle(c: Context): Response {
      const sessionId = c.req.param("id") ?? "";
      if (deps.store.getSession(sessionId)?.workspace_id !== c.req.param("ws")) {
        throw notFound("session");
      }
      const query = parseQuery(c, StreamQuery);
      const cursor = resumeCursor(
        query.after_sequence,
        parseLastEventId(c.req.header("last-event-id")),
      );
      if (closed) throw invalidRequest("daemon is shutting down");

      // Synchronous from here until registration: nothing can commit in between.
      const opening = openingFrames(sessionId, cursor, query);
      const queue: string[] = [opening.frame];
      let queuedBytes = opening.frame.length;
      let wake: (() => void) | undefined;
      let ended = false;
      let closing = false;
      /** The characters of the chunk being written, until it is written. */
      let writing = 0;
      const socket = socketOf(c);

      const appends = query[APPEND_QUERY] === true ? createAppendState() : undefined;
      if (appends !== undefined) rememberEntries(appends, opening.entries);
      const sub: Subscriber = {
        cursor: opening.cursor,
        appends,
        revision: "",
        enqueue(frame) {
          if (ended) return;
          queue.push(frame);
          queuedBytes += frame.length;
          // What the client has not taken yet, before this frame: a client that keeps up
          // gets even a frame larger than the limit (the whole entry of a long message).
          // The chunk being written is in the response's buffer or still on its way there.
          const backlog =
            queuedBytes - frame.length + Math.max(writing, socket?.writableLength ?? 0);
          if (backlog > maxQueuedBytes) {
            log(`[stream] ${sessionId}: client too slow, disconnecting`);
            ended = true;
            socket?.destroy();
          }
          wake?.();
        },
        close() {
          closing = true;
          wake?.();
        },
      };
      const session = host.findSession(sessionId);
      if (session !== undefined) {
        const frames = sessionFrames(session, sub);
        queue.push(frames);
        queuedBytes += frames.length;
        // A stopped session's stream ends after its frames (CompozyOS does the same).
        if (session.state === "stopped") closing = true;
      }
      let set = subscribers.get(sessionId);
      if (set === undefined) {
        set = new Set();
        subscribers.set(sessionId, set);
      }
      set.add(sub);
      const remove = () => {
        ended = true;
        set.delete(sub);
        if (set.size === 0 && subscribers.get(sessionId) === set) {
          subscribers.delete(sessionId);
          forgetPacing(sessionId);
        }
        wake?.();
      };

      return streamSSE(c, async (stream) => {
        stream.onAbort(remove);
        const keepalive = setInterval(() => sub.enqueue(": keepalive\n\n"), deps.keepaliveMs);
        try {
          while (!ended && !stream.aborted) {
            if (queue.length === 0) {
              if (closing) break;
              await new Promise<void>((resolve) => {
                wake = resolve;
              });
              wake = undefined;
              continue;
            }
            const chunk = queue.join("");
            queue.length = 0;
            queuedBytes = 0;
            writing = chunk.length;
            await stream.write(chunk);
            writing = 0;
          }
        } finally {
          clearInterval(keepalive);
          remove();
        }
      });
    },

    subscriberCount(sessionId?: string): number {
      if (sessionId !== undefined) return subscribers.get(sessionId)?.size ?? 0;
      let count = 0;
      for (const set of subscribers.values()) count += set.size;
      return count;
    },

    /** Ends every stream (daemon shutdown); clients reconnect to a new daemon with their cursor. */
    closeAll(): void {
      closed = true;
      unsubscribeCommits();
      unsubscribeHost();
      for (const { timer } of deferred.values()) clearTimeout(timer);
      deferred.clear();
      for (const set of subscribers.values()) for (const sub of [...set]) sub.close();
    },
  };
}
