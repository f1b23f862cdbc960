// The live session stream, outside React so it can be tested with a fake EventSource.
// Every event is parsed with the contract and written into the query cache; a drop closes
// the source and reconnects with backoff, resuming from the cached cursor behind its
// epoch/generation fence as CompozyOS's web does; a rewritten history (a `reset`
// snapshot, or a frame from another epoch/generation) replaces the cache. A stopped
// session ends the stream until the session runs again (`wake`).
import type { QueryClient } from "@tanstack/react-query";
import { ErrorEnvelope } from "../contract/error";
import type { SessionEnvelope } from "../contract/session";
import {
  EntryAppendEvent,
  SessionStoppedEvent,
  STREAM_EVENTS,
  TranscriptDeltaEvent,
  TranscriptSnapshotEvent,
} from "../contract/stream";
import { z } from "../contract/zod";
import { afterFirstRead } from "./after-first-read";
import { LenientEntries } from "./lenient-entries";
import { type FlushScheduler, nextFrame } from "./next-frame";
import { type SessionRef, sessionQueries } from "./session-queries";
import { streamUrl } from "./stream-url";
import {
  foldAppend,
  foldDelta,
  foldNewestPage,
  reconnectDelayMs,
  resumeCursor,
  type TranscriptData,
} from "./transcript-cache";
import { transcriptQueries } from "./transcript-queries";
import { usageQueries } from "./usage-queries";

/** `stopped`: the daemon said the session stopped; nothing reconnects until `wake()`. */
export type StreamState = "connecting" | "open" | "reconnecting" | "stopped";

/**
 * How long a connection must stay open before its backoff is forgiven. Resetting on
 * `open` alone made a daemon that accepts and then closes (a stopped session) a
 * reconnect loop every 0.25–0.5 s; CompozyOS's web waits the same 8 s.
 */
const STABLE_CONNECTION_MS = 8_000;

export type EventSourceLike = {
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
};
export type EventSourceFactory = (url: string) => EventSourceLike;

/** A parsed transcript frame waiting to be folded: a whole-entry delta or an append. */
type PendingFrame =
  | { kind: "delta"; data: TranscriptDeltaEvent }
  | { kind: "append"; data: EntryAppendEvent };

const SnapshotPayload = z.extend(TranscriptSnapshotEvent, { entries: LenientEntries });
const DeltaPayload = z.extend(TranscriptDeltaEvent, { entries: LenientEntries });

/**
 * CompozyOS's stream carries the transcript only: the session's activity and its usage
 * are re-read after transcript frames, at most once per this many ms (trailing, so the
 * last frame of a turn is always followed by a read).
 */
const SURFACE_REFRESH_MS = 1_000;

/** The usage keys the context rail reads; re-read whenever usage may have moved. */
function usageKeys(sessionId: string) {
  return [usageQueries.usageKey(sessionId), usageQueries.turnsKey(sessionId)] as const;
}

function defaultFactory(url: string): EventSourceLike {
  return new EventSource(url);
}

export class SessionStream {
  private readonly client: QueryClient;
  private readonly ref: SessionRef;
  private readonly createSource: EventSourceFactory;
  private readonly random: () => number;
  private readonly scheduleFlush: FlushScheduler;
  /** Deltas parsed but not yet folded into the cache (see `nextFrame`). */
  private pending: PendingFrame[] = [];
  private cancelFlush: (() => void) | undefined;
  private flushScheduled = false;
  private readonly listeners = new Set<() => void>();
  private source: EventSourceLike | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stableTimer: ReturnType<typeof setTimeout> | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private cancelFirstReadWait: (() => void) | undefined;
  private attempt = 0;
  private hasOpened = false;
  private wantSnapshot = false;
  private stopped = false;
  state: StreamState = "connecting";

  constructor(
    client: QueryClient,
    ref: SessionRef,
    createSource: EventSourceFactory = defaultFactory,
    random: () => number = Math.random,
    scheduleFlush: FlushScheduler = nextFrame,
  ) {
    this.client = client;
    this.ref = ref;
    this.createSource = createSource;
    this.random = random;
    this.scheduleFlush = scheduleFlush;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    this.stopped = false;
    this.cancelFirstReadWait = afterFirstRead(this.client, this.transcriptKey, () => {
      this.cancelFirstReadWait = undefined;
      if (!this.stopped) this.connect();
    });
  }

  stop(): void {
    this.stopped = true;
    this.cancelFirstReadWait?.();
    this.flushDeltas();
    clearTimeout(this.timer);
    clearTimeout(this.stableTimer);
    clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
    this.source?.close();
    this.source = undefined;
  }

  /** The session runs again (a prompt resumed it): reopen a stream the daemon ended. */
  wake(): void {
    if (this.stopped || this.state !== "stopped") return;
    this.attempt = 0;
    this.setState("connecting");
    this.connect();
  }

  private setState(state: StreamState): void {
    if (this.state === state) return;
    this.state = state;
    for (const listener of this.listeners) listener();
  }

  private get transcriptKey() {
    return transcriptQueries.key(this.ref.sessionId);
  }

  private connect(): void {
    // The cursor must include every delta already received (a reset among them only
    // means this connection asks for a snapshot).
    this.flushDeltas();
    const resume = this.wantSnapshot
      ? undefined
      : resumeCursor(this.client.getQueryData<TranscriptData>(this.transcriptKey));
    this.wantSnapshot = false;
    const source = this.createSource(streamUrl(this.ref, resume));
    this.source = source;
    source.onopen = () => this.opened();
    source.onerror = (event) => this.failed(event);
    const on = (name: string, handle: (data: unknown) => void, unreadable?: () => void) =>
      source.addEventListener(name, (event) => {
        if (this.source !== source) return;
        let data: unknown;
        try {
          data = JSON.parse(String(event.data));
        } catch {
          console.warn(`Tideline: unreadable ${name} event`, event.data);
          unreadable?.();
          return;
        }
        handle(data);
      });
    on(STREAM_EVENTS.transcriptSnapshot, (data) => this.snapshot(data));
    on(STREAM_EVENTS.transcriptDelta, (data) => this.delta(data));
    // An append that cannot be read is text missed: read the transcript again.
    on(
      STREAM_EVENTS.entryAppend,
      (data) => this.append(data),
      () => this.gap(),
    );
    on(STREAM_EVENTS.commandsChanged, () => this.commandsChanged());
    on(STREAM_EVENTS.sessionStopped, (data) => this.sessionStopped(data));
    // CompozyOS's web treats `done` (sent at shutdown, with no payload to rely on) as
    // terminal like `session_stopped`: reconnecting would only meet a daemon going away.
    source.addEventListener(STREAM_EVENTS.done, () => {
      if (this.source === source) this.sessionStopped(undefined);
    });
  }

  private opened(): void {
    clearTimeout(this.stableTimer);
    this.stableTimer = setTimeout(() => {
      this.attempt = 0;
    }, STABLE_CONNECTION_MS);
    if (this.hasOpened) this.invalidateAfterGap();
    this.hasOpened = true;
    this.setState("open");
  }

  /** Both the transport's own error and the daemon's `error` event land here. */
  private failed(event: Event): void {
    if (this.state === "stopped") return;
    if (event instanceof MessageEvent && typeof event.data === "string") {
      const envelope = ErrorEnvelope.safeParse(safeJson(event.data));
      console.warn("Tideline: the stream reported an error", envelope.data ?? event.data);
    }
    this.reconnectSoon();
  }

  private reconnectSoon(delay = reconnectDelayMs(this.attempt, this.random)): void {
    clearTimeout(this.stableTimer);
    this.source?.close();
    this.source = undefined;
    if (this.stopped) return;
    this.setState("reconnecting");
    clearTimeout(this.timer);
    this.attempt += 1;
    this.timer = setTimeout(() => {
      if (!this.stopped) this.connect();
    }, delay);
  }

  /** Re-read the session and its usage soon: the transcript moved, so they may have. */
  private refreshSurfacesSoon(): void {
    if (this.refreshTimer !== undefined || this.stopped) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.invalidateAfterGap();
    }, SURFACE_REFRESH_MS);
  }

  private invalidateAfterGap(): void {
    for (const queryKey of usageKeys(this.ref.sessionId)) {
      void this.client.invalidateQueries({ queryKey });
    }
    void this.client.invalidateQueries({ queryKey: sessionQueries.detail(this.ref).queryKey });
  }

  private snapshot(data: unknown): void {
    const parsed = SnapshotPayload.safeParse(data);
    if (!parsed.success) {
      warnInvalid(STREAM_EVENTS.transcriptSnapshot, parsed.error);
      return;
    }
    if (parsed.data.session_id !== this.ref.sessionId) return;
    // Deltas received before the snapshot are applied first, in order.
    if (this.afterFlush(this.flushDeltas())) return;
    // A `reset` snapshot (the daemon's answer to a stale fence) replaces what is cached,
    // older pages included; a plain one merges.
    this.client.setQueryData<TranscriptData>(this.transcriptKey, (current) =>
      foldNewestPage(parsed.data.reset === true ? undefined : current, parsed.data),
    );
    this.refreshSurfacesSoon();
  }

  private delta(data: unknown): void {
    const parsed = DeltaPayload.safeParse(data);
    if (!parsed.success) {
      warnInvalid(STREAM_EVENTS.transcriptDelta, parsed.error);
      return;
    }
    if (parsed.data.session_id !== this.ref.sessionId) return;
    this.queue({ kind: "delta", data: parsed.data });
  }

  private append(data: unknown): void {
    const parsed = EntryAppendEvent.safeParse(data);
    if (!parsed.success) {
      warnInvalid(STREAM_EVENTS.entryAppend, parsed.error);
      this.gap();
      return;
    }
    this.queue({ kind: "append", data: parsed.data });
  }

  private queue(frame: PendingFrame): void {
    this.pending.push(frame);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    this.cancelFlush = this.scheduleFlush(() => {
      this.flushScheduled = false;
      this.afterFlush(this.flushDeltas());
    });
  }

  /**
   * Something was missed (an append that does not fit, or cannot be read): fold what came
   * before it, then start over from a snapshot, with backoff so a daemon that keeps
   * sending bad appends is not asked again at once.
   */
  private gap(): void {
    if (this.afterFlush(this.flushDeltas())) return;
    this.wantSnapshot = true;
    this.reconnectSoon();
  }

  /** Reconnects for a snapshot after a flush that met a reset or a gap; true if it did. */
  private afterFlush(result: "ok" | "reset" | "gap"): boolean {
    if (result !== "ok") this.reconnectSoon(result === "reset" ? 0 : undefined);
    return result !== "ok";
  }

  /**
   * Folds the pending frames, in order, into one cache write. "reset" when one of them
   * belongs to a rewritten history (or the cache is gone), "gap" when an append does not
   * fit: the caller starts over from a snapshot.
   */
  private flushDeltas(): "ok" | "reset" | "gap" {
    if (this.flushScheduled) this.cancelFlush?.();
    this.flushScheduled = false;
    this.cancelFlush = undefined;
    const deltas = this.pending;
    if (deltas.length === 0) return "ok";
    this.pending = [];
    const initial = this.client.getQueryData<TranscriptData>(this.transcriptKey);
    let current = initial;
    for (const frame of deltas) {
      const result =
        frame.kind === "delta" ? foldDelta(current, frame.data) : foldAppend(current, frame.data);
      if (result.kind !== "ok") {
        // What folded before it is replaced by the snapshot.
        this.wantSnapshot = true;
        if (result.kind === "gap") console.warn("Tideline: an append did not fit; reading again");
        return result.kind;
      }
      current = result.data;
    }
    if (current !== initial && current !== undefined) {
      this.client.setQueryData<TranscriptData>(this.transcriptKey, current);
      this.refreshSurfacesSoon();
    }
    return "ok";
  }

  /** The command catalog moved: Compact now depends on it, so re-read the session. */
  private commandsChanged(): void {
    void this.client.invalidateQueries({ queryKey: sessionQueries.detail(this.ref).queryKey });
  }

  /**
   * The daemon finalised the session (`session_stopped`) or is shutting down (`done`) and
   * will close the stream: mark it stopped and do not reconnect (EventSource would,
   * forever). A prompt resumes it; `wake` then reopens.
   */
  private sessionStopped(data: unknown): void {
    const parsed = SessionStoppedEvent.safeParse(data);
    if (parsed.success && parsed.data.session_id !== this.ref.sessionId) return;
    this.flushDeltas();
    clearTimeout(this.timer);
    clearTimeout(this.stableTimer);
    this.source?.close();
    this.source = undefined;
    this.setState("stopped");
    const detailKey = sessionQueries.detail(this.ref).queryKey;
    const held = this.client.getQueryData<SessionEnvelope>(detailKey);
    // Read as stopped already (a stopped session's stream ends right after its first
    // frames): nothing moved that a transcript frame did not re-read on its own.
    if (held?.session.state === "stopped") return;
    this.client.setQueryData<SessionEnvelope>(detailKey, (current) =>
      current ? { session: { ...current.session, state: "stopped" } } : current,
    );
    void this.client.invalidateQueries({ queryKey: detailKey });
    void this.client.invalidateQueries({ queryKey: sessionQueries.list().queryKey });
    for (const queryKey of usageKeys(this.ref.sessionId)) {
      void this.client.invalidateQueries({ queryKey });
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function warnInvalid(name: string, error: { issues: readonly { message: string }[] }): void {
  console.warn(`Tideline: ignoring an invalid ${name} event`, error.issues[0]?.message);
}
