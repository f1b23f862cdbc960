// The live session stream (`…/stream`, text/event-stream).
//
// Consistency comes from one rule: a subscriber's cursor is the highest ledger sequence
// whose entry changes it has been sent. Connecting reads the snapshot (or the catch-up
// delta) and registers the cursor in the same synchronous step, so no commit can fall in
// between. Commits only mark a session dirty; one flush per event-loop turn then sends each
// subscriber `entriesChangedAfter(cursor)` and moves the cursor to the session's max
// sequence. A reconnect with that cursor (`after_sequence` or `Last-Event-ID`) therefore
// gets every change once. Bursts of commits coalesce into one delta.
//
// Each subscriber has its own outgoing queue; a client that stops reading lets it grow
// past `maxQueuedBytes` and is disconnected (it resumes with its cursor).
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import type { ErrorEnvelope } from "../../src/contract/error";
import {
  SessionUpdatedEvent,
  STREAM_EVENTS,
  type StreamEventName,
  StreamQuery,
  TranscriptDeltaEvent,
  TranscriptSnapshotEvent,
  type UsageChangedEvent,
} from "../../src/contract/stream";
import { DaemonEntry, TRANSCRIPT_DEFAULT_LIMIT } from "../../src/contract/transcript";
import type { SessionHost } from "../acp/session-host";
import type {
  CommitNotice,
  SessionReader,
  SessionRecorder,
  SessionStore,
} from "../domain/session-recorder-api";
import { invalidRequest, notFound } from "./api-error";
import { parseQuery } from "./request-parsing";

export const DEFAULT_MAX_QUEUED_BYTES = 8 * 1024 * 1024;

const StrictSnapshot = TranscriptSnapshotEvent.extend({ entries: z.array(DaemonEntry) });
const StrictDelta = TranscriptDeltaEvent.extend({ entries: z.array(DaemonEntry) });

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
  enqueue(frame: string): void;
  close(): void;
};

type Pending = {
  usage: Map<UsageChangedEvent["kind"], UsageChangedEvent>;
  sessionChanged: boolean;
};

const USAGE_KIND_OF_ROW: Record<string, UsageChangedEvent["kind"] | undefined> = {
  usage: "usage",
  compaction: "compaction",
  "session.compaction_fired": "compaction",
  "prompt.completed": "prompt_completed",
};

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

/** The node socket behind a request, when served by @hono/node-server (absent in-process). */
function socketOf(c: Context): { destroy(): void } | undefined {
  const env: unknown = c.env;
  if (typeof env !== "object" || env === null || !("outgoing" in env)) return undefined;
  const outgoing: unknown = env.outgoing;
  return typeof outgoing === "object" && outgoing !== null && "destroy" in outgoing
    ? (outgoing as { destroy(): void })
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
      entry = { usage: new Map(), sessionChanged: false };
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
    const entry = pendingFor(notice.sessionId);
    for (const row of notice.rows) {
      const kind = USAGE_KIND_OF_ROW[row.type];
      if (kind === undefined) continue;
      entry.usage.set(kind, {
        sequence: row.sequence,
        ...(row.turn_id === null ? {} : { turn_id: row.turn_id }),
        kind,
      });
    }
    scheduleFlush();
  }

  function onSessionChanged(sessionId: string) {
    if (!subscribers.has(sessionId)) return;
    pendingFor(sessionId).sessionChanged = true;
    scheduleFlush();
  }

  function flush() {
    flushScheduled = false;
    const work = [...pending];
    pending.clear();
    for (const [sessionId, entry] of work) {
      const subs = subscribers.get(sessionId);
      if (subs === undefined || subs.size === 0) continue;
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

  function flushSession(sessionId: string, subs: Set<Subscriber>, entry: Pending) {
    const maxSequence = reader.maxSequence(sessionId);
    const behind = new Map<number, Subscriber[]>();
    for (const sub of subs) {
      if (sub.cursor >= maxSequence) continue;
      const group = behind.get(sub.cursor) ?? [];
      group.push(sub);
      behind.set(sub.cursor, group);
    }
    if (behind.size > 0) {
      const version = reader.historyVersion(sessionId);
      for (const [cursor, group] of behind) {
        const entries = reader.entriesChangedAfter(sessionId, cursor);
        if (entries.length > 0) {
          const data = {
            session_id: sessionId,
            ...version,
            entries,
            cursor: maxSequence,
            max_sequence: maxSequence,
          };
          check(StrictDelta, data);
          const frame = formatEvent(STREAM_EVENTS.transcriptDelta, data, maxSequence);
          for (const sub of group) sub.enqueue(frame);
        }
        for (const sub of group) sub.cursor = maxSequence;
      }
    }
    for (const usage of entry.usage.values()) {
      const frame = formatEvent(STREAM_EVENTS.usageChanged, usage);
      for (const sub of subs) sub.enqueue(frame);
    }
    if (entry.sessionChanged) {
      const session = host.findSession(sessionId);
      if (session !== undefined) {
        check(SessionUpdatedEvent, { session });
        const frame = formatEvent(STREAM_EVENTS.sessionUpdated, { session });
        for (const sub of subs) sub.enqueue(frame);
      }
    }
  }

  /** The first frames of a new subscriber: snapshot, or the catch-up delta. */
  function openingFrames(sessionId: string, cursor: number | undefined) {
    const version = reader.historyVersion(sessionId);
    let frame: string;
    let at: number;
    if (cursor === undefined) {
      const page = reader.transcriptPage(sessionId, { limit: TRANSCRIPT_DEFAULT_LIMIT });
      const data = {
        session_id: sessionId,
        epoch: page.epoch,
        generation: page.generation,
        entries: page.entries,
        max_sequence: page.max_sequence,
        has_older: page.has_older,
        ...(page.next_before_sequence === undefined
          ? {}
          : { next_before_sequence: page.next_before_sequence }),
      };
      check(StrictSnapshot, data);
      frame = formatEvent(STREAM_EVENTS.transcriptSnapshot, data, page.max_sequence);
      at = page.max_sequence;
    } else {
      const maxSequence = reader.maxSequence(sessionId);
      at = Math.max(cursor, maxSequence);
      const data = {
        session_id: sessionId,
        ...version,
        entries: reader.entriesChangedAfter(sessionId, cursor),
        cursor: at,
        max_sequence: maxSequence,
      };
      check(StrictDelta, data);
      frame = formatEvent(STREAM_EVENTS.transcriptDelta, data, at);
    }
    const session = host.findSession(sessionId);
    const updated =
      session === undefined ? "" : formatEvent(STREAM_EVENTS.sessionUpdated, { session });
    return { frames: frame + updated, cursor: at };
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
      const opening = openingFrames(sessionId, cursor);
      const queue: string[] = [opening.frames];
      let queuedBytes = opening.frames.length;
      let wake: (() => void) | undefined;
      let ended = false;
      const socket = socketOf(c);

      const sub: Subscriber = {
        cursor: opening.cursor,
        enqueue(frame) {
          if (ended) return;
          queue.push(frame);
          queuedBytes += frame.length;
          if (queuedBytes > maxQueuedBytes) {
            log(`[stream] ${sessionId}: client too slow, disconnecting`);
            ended = true;
            socket?.destroy();
          }
          wake?.();
        },
        close() {
          ended = true;
          wake?.();
        },
      };
      let set = subscribers.get(sessionId);
      if (set === undefined) {
        set = new Set();
        subscribers.set(sessionId, set);
      }
      set.add(sub);
      const remove = () => {
        ended = true;
        set.delete(sub);
        if (set.size === 0 && subscribers.get(sessionId) === set) subscribers.delete(sessionId);
        wake?.();
      };

      return streamSSE(c, async (stream) => {
        stream.onAbort(remove);
        const keepalive = setInterval(() => sub.enqueue(": keepalive\n\n"), deps.keepaliveMs);
        try {
          while (!ended && !stream.aborted) {
            if (queue.length === 0) {
              await new Promise<void>((resolve) => {
                wake = resolve;
              });
              wake = undefined;
              continue;
            }
            const chunk = queue.join("");
            queue.length = 0;
            queuedBytes = 0;
            await stream.write(chunk);
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
      for (const set of subscribers.values()) for (const sub of [...set]) sub.close();
    },
  };
}
