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
// This module is the hub: the request, who is subscribed, shutdown. The frames are
// `stream-frames.ts`, the flush and its pacing `stream-fanout.ts` and `delta-pacing.ts`,
// one subscriber's queue `stream-connection.ts`, and what an append is `stream-appends.ts`.
import type { Context } from "hono";
import { APPEND_QUERY, StreamQuery } from "../../src/contract/stream";
import type { SessionHost } from "../acp/session-host";
import type { SessionReader, SessionRecorder, SessionStore } from "../domain/session-recorder-api";
import { invalidRequest, notFound } from "./api-error";
import { parseQuery } from "./request-parsing";
import { createAppendState, rememberEntries } from "./stream-appends";
import { createConnection, DEFAULT_MAX_QUEUED_BYTES, type Subscriber } from "./stream-connection";
import { createStreamFanOut } from "./stream-fanout";
import { type CatalogTold, createStreamFrames } from "./stream-frames";

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

/** The stream's session (in the workspace of the URL), its query and resume cursor. */
function streamRequest(c: Context, store: SessionStore) {
  const sessionId = c.req.param("id") ?? "";
  if (store.getSession(sessionId)?.workspace_id !== c.req.param("ws")) {
    throw notFound("session");
  }
  const query = parseQuery(c, StreamQuery);
  const cursor = resumeCursor(
    query.after_sequence,
    parseLastEventId(c.req.header("last-event-id")),
  );
  return { sessionId, query, cursor };
}

export type StreamHub = ReturnType<typeof createStreamHub>;

export function createStreamHub(deps: StreamHubDeps) {
  const { host } = deps;
  const subscribers = new Map<string, Set<Subscriber>>();
  const frames = createStreamFrames(deps);
  const fanOut = createStreamFanOut({ ...deps, frames, subscribers });
  let closed = false;

  /** Adds the subscriber; the returned function takes it out again. */
  function register(sessionId: string, sub: Subscriber): () => void {
    let set = subscribers.get(sessionId);
    if (set === undefined) {
      set = new Set();
      subscribers.set(sessionId, set);
    }
    const own = set;
    own.add(sub);
    return () => {
      own.delete(sub);
      if (own.size === 0 && subscribers.get(sessionId) === own) {
        subscribers.delete(sessionId);
        fanOut.forget(sessionId);
      }
    };
  }

  const unsubscribeCommits = deps.recorder.onCommit((notice) =>
    fanOut.changed(notice.sessionId, false),
  );
  const unsubscribeHost = host.onSessionChanged((sessionId) => fanOut.changed(sessionId, true));

  return {
    /** The `GET …/stream` handler. */
    handle(c: Context): Response {
      const { sessionId, query, cursor } = streamRequest(c, deps.store);
      if (closed) throw invalidRequest("daemon is shutting down");

      // Synchronous from here until registration: nothing can commit in between.
      const opening = frames.opening(sessionId, cursor, query);
      const appends = query[APPEND_QUERY] === true ? createAppendState() : undefined;
      if (appends !== undefined) rememberEntries(appends, opening.entries);
      const told: CatalogTold = { revision: "" };
      const first = [opening.frame];
      const session = host.findSession(sessionId);
      if (session !== undefined) first.push(frames.session(session, told));
      const connection = createConnection(c, {
        sessionId,
        cursor: opening.cursor,
        appends,
        revision: told.revision,
        first,
        maxQueuedBytes: deps.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES,
        keepaliveMs: deps.keepaliveMs,
        log: deps.log,
      });
      // A stopped session's stream ends after its frames (CompozyOS does the same).
      if (session?.state === "stopped") connection.close();
      return connection.serve(register(sessionId, connection));
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
      fanOut.stop();
      for (const set of subscribers.values()) for (const sub of [...set]) sub.close();
    },
  };
}
