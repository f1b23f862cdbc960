// How commits reach the session stream's subscribers. Commits only mark a session dirty;
// one flush per event-loop turn then sends each subscriber `entriesChangedAfter(cursor)`
// (read once per cursor, shared by every subscriber at it) and moves its cursor to the
// session's max sequence, paced per session (`delta-pacing.ts`). A subscriber that asked
// for them gets append frames instead (ADR 0200). After the frames of a change, a changed
// session sends its session frames; a stopped or deleted one ends its streams.
import type { ErrorEnvelope } from "../../src/contract/error";
import { STREAM_EVENTS } from "../../src/contract/stream";
import type { SessionHost } from "../acp/session-host";
import type { SessionReader } from "../domain/session-recorder-api";
import { createDeltaPacing, type DeltaPacing } from "./delta-pacing";
import { type AppendState, createPlanner, rememberEntries } from "./stream-appends";
import type { Subscriber } from "./stream-connection";
import { type AppendBatch, formatEvent, type StreamFrames } from "./stream-frames";

/**
 * Append frames (ADR 0200): a batch of appends only is held back, up to `APPEND_HOLD_MS`,
 * until its frames weigh at most `APPEND_FRAME_RATIO` times the text they carry, so a
 * trickle of small chunks does not cost more envelope than text.
 */
export const APPEND_HOLD_MS = 1_000;
const APPEND_FRAME_RATIO = 1.5;

export type StreamFanOut = {
  /** A commit (or, `sessionChanged`, a change of the session itself) to send. */
  changed(sessionId: string, sessionChanged: boolean): void;
  /** The session's last subscriber left. */
  forget(sessionId: string): void;
  /** Shutdown: no deferred flush runs any more. */
  stop(): void;
};

/** What one flush sent: its largest frame's length, the most characters compared. */
type Sent = { largest: number; compared: number };

type FlushContext = {
  reader: SessionReader;
  host: SessionHost;
  frames: StreamFrames;
  pacing: DeltaPacing;
  /** Flushes the session again after `waitMs`. */
  hold(sessionId: string, waitMs: number): void;
};

/**
 * Sends a batch to the subscribers that asked for appends. One plan per set of held
 * versions; a thin batch (appends only, more envelope than text) waits for more text,
 * at most `APPEND_HOLD_MS`, keeping the subscriber's cursor where it was.
 */
function sendAppends(context: FlushContext, batch: AppendBatch, subs: Subscriber[]): Sent {
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
    const frames = built.get(signature) ?? context.frames.appends(batch, planned);
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
  if (holdUntil !== Number.POSITIVE_INFINITY) context.hold(batch.sessionId, holdUntil - now);
  return { largest, compared };
}

/** Every subscriber behind `maxSequence` gets what changed after its cursor. */
function sendChanges(
  context: FlushContext,
  sessionId: string,
  subs: Set<Subscriber>,
  maxSequence: number,
  urgent: boolean,
): Sent {
  const behind = new Map<number, Subscriber[]>();
  for (const sub of subs) {
    if (sub.cursor >= maxSequence) continue;
    const group = behind.get(sub.cursor) ?? [];
    group.push(sub);
    behind.set(sub.cursor, group);
  }
  const sent: Sent = { largest: 0, compared: 0 };
  for (const [cursor, group] of behind) {
    const changed = context.reader.entriesChangedAfter(sessionId, cursor);
    const plain = group.filter((sub) => sub.appends === undefined);
    if (plain.length > 0) {
      const data = context.frames.delta(sessionId, cursor, maxSequence, changed);
      if (data.entries.length > 0) {
        const frame = formatEvent(STREAM_EVENTS.transcriptDelta, data, data.cursor);
        sent.largest = Math.max(sent.largest, frame.length);
        for (const sub of plain) sub.enqueue(frame);
      }
      for (const sub of plain) sub.cursor = maxSequence;
    }
    if (plain.length === group.length) continue;
    const batch = { sessionId, cursor, maxSequence, changed, urgent };
    const appended = sendAppends(
      context,
      batch,
      group.filter((sub) => sub.appends !== undefined),
    );
    sent.largest = Math.max(sent.largest, appended.largest);
    sent.compared = Math.max(sent.compared, appended.compared);
  }
  return sent;
}

/** The session frames after a change of the session; a stop or a deletion ends the streams. */
function sendSessionFrames(context: FlushContext, sessionId: string, subs: Set<Subscriber>) {
  const session = context.host.findSession(sessionId);
  for (const sub of [...subs]) {
    if (session === undefined) {
      sub.close(); // deleted
      continue;
    }
    const frames = context.frames.session(session, sub);
    if (frames !== "") sub.enqueue(frames);
    if (session.state === "stopped") sub.close();
  }
}

function flushSession(
  context: FlushContext,
  sessionId: string,
  subs: Set<Subscriber>,
  sessionChanged: boolean,
): void {
  const maxSequence = context.reader.maxSequence(sessionId);
  const sent = sendChanges(context, sessionId, subs, maxSequence, sessionChanged);
  context.pacing.sent(sessionId, sent.largest, sent.compared);
  if (sessionChanged) sendSessionFrames(context, sessionId, subs);
}

export function createStreamFanOut(deps: {
  reader: SessionReader;
  host: SessionHost;
  frames: StreamFrames;
  subscribers: ReadonlyMap<string, Set<Subscriber>>;
  log: (line: string) => void;
}): StreamFanOut {
  /** Sessions with something to send; `sessionChanged`: session frames too. */
  const pending = new Map<string, { sessionChanged: boolean }>();
  let flushScheduled = false;
  const pacing = createDeltaPacing(scheduleFlush);
  const context: FlushContext = { ...deps, pacing, hold };

  function pendingFor(sessionId: string) {
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
  function hold(sessionId: string, waitMs: number) {
    pendingFor(sessionId);
    pacing.defer(sessionId, waitMs);
  }

  function flush() {
    flushScheduled = false;
    const work = [...pending];
    pending.clear();
    const now = performance.now();
    for (const [sessionId, entry] of work) {
      const subs = deps.subscribers.get(sessionId);
      if (subs === undefined || subs.size === 0) continue;
      const wait = pacing.waitMs(sessionId, now);
      if (!entry.sessionChanged && wait > 0) {
        hold(sessionId, wait);
        continue;
      }
      try {
        flushSession(context, sessionId, subs, entry.sessionChanged);
      } catch (error) {
        deps.log(
          `[stream] ${sessionId}: flush failed: ${error instanceof Error ? error.stack : error}`,
        );
        const envelope: ErrorEnvelope = { error: "stream failed", code: "internal" };
        for (const sub of subs) {
          sub.enqueue(formatEvent(STREAM_EVENTS.error, envelope));
          sub.close();
        }
      }
    }
  }

  return {
    changed(sessionId, sessionChanged) {
      if (!deps.subscribers.has(sessionId)) return;
      const entry = pendingFor(sessionId);
      if (sessionChanged) entry.sessionChanged = true;
      scheduleFlush();
    },
    forget: (sessionId) => pacing.forget(sessionId),
    stop: () => pacing.stop(),
  };
}
