// The frames of the live session stream, as CompozyOS writes its SSE events: the opening
// snapshot (plain or reset, with the reason) or catch-up delta, a transcript delta, a
// subscriber's append frames (ADR 0200) and the session frames that follow them (a changed
// command catalog, a stop). Each is checked against the contract when the daemon
// validates.

import type { DaemonSession } from "../../src/contract/session";
import {
  DaemonTranscriptDeltaEvent,
  DaemonTranscriptSnapshotEvent,
  EntryAppendEvent,
  SessionCommandsChangedEvent,
  SessionStoppedEvent,
  type SnapshotReason,
  STREAM_EVENTS,
  type StreamEventName,
} from "../../src/contract/stream";
import { type DaemonEntry, TRANSCRIPT_DEFAULT_LIMIT } from "../../src/contract/transcript";
import type { z } from "../../src/contract/zod";
import { commandsRevision } from "../acp/session-host";
import type { SessionReader, SessionStore } from "../domain/session-recorder-api";
import { type AppendPlan, appendData } from "./stream-appends";

/** One session's changes after one cursor, for the subscribers at that cursor. */
export type AppendBatch = {
  sessionId: string;
  cursor: number;
  maxSequence: number;
  changed: DaemonEntry[];
  /** Session frames follow (a stop): nothing may be held back. */
  urgent: boolean;
};

/** The command catalog revision a subscriber was last told about. */
export type CatalogTold = { revision: string };

/** The reconnect fence and page size a subscriber opened the stream with. */
export type OpeningQuery = {
  epoch?: number | undefined;
  generation?: number | undefined;
  limit?: number | undefined;
};

export type StreamFrames = ReturnType<typeof createStreamFrames>;

type FrameContext = {
  reader: SessionReader;
  store: SessionStore;
  check(schema: z.ZodMiniType, value: unknown): void;
};

/** CompozyOS's reconnect check (session_stream_snapshot.go transcriptReconnectResetReason). */
function resetReason(
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
function stoppedEvent(session: DaemonSession) {
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

function deltaData(
  context: FrameContext,
  sessionId: string,
  cursor: number,
  maxSequence: number,
  entries: DaemonEntry[] = context.reader.entriesChangedAfter(sessionId, cursor),
) {
  const data = {
    session_id: sessionId,
    workspace_id: context.store.getSession(sessionId)?.workspace_id ?? "",
    ...context.reader.historyVersion(sessionId),
    entries,
    cursor: Math.max(cursor, maxSequence),
    max_sequence: maxSequence,
    has_more: false,
  };
  context.check(DaemonTranscriptDeltaEvent, data);
  return data;
}

/** What follows the transcript frames: a changed catalog, and a stop that ends it all. */
function sessionFrames(context: FrameContext, session: DaemonSession, told: CatalogTold): string {
  let frames = "";
  const revision = commandsRevision(session.available_commands);
  if (revision !== told.revision) {
    told.revision = revision;
    const data = { session_id: session.id, revision };
    context.check(SessionCommandsChangedEvent, data);
    frames += formatEvent(STREAM_EVENTS.commandsChanged, data);
  }
  if (session.state === "stopped") {
    const data = stoppedEvent(session);
    context.check(SessionStoppedEvent, data);
    frames += formatEvent(STREAM_EVENTS.sessionStopped, data);
  }
  return frames;
}

/** One subscriber's frames for a plan: its appends, then its whole entries as a delta. */
function appendFrames(context: FrameContext, batch: AppendBatch, plan: AppendPlan): string {
  const cursor = Math.max(batch.cursor, batch.maxSequence);
  const growths = plan.appends.flatMap(({ entry, growths }) =>
    growths.map((growth) => ({ entry, growth })),
  );
  let frames = "";
  for (const [index, { entry, growth }] of growths.entries()) {
    // Only the batch's last frame moves the client's cursor.
    const last = plan.whole.length === 0 && index === growths.length - 1;
    const data = appendData(entry, growth, last ? cursor : undefined);
    context.check(EntryAppendEvent, data);
    frames += formatEvent(STREAM_EVENTS.entryAppend, data, last ? cursor : undefined);
  }
  if (plan.whole.length > 0) {
    const data = deltaData(context, batch.sessionId, batch.cursor, batch.maxSequence, plan.whole);
    frames += formatEvent(STREAM_EVENTS.transcriptDelta, data, data.cursor);
  }
  return frames;
}

/** The first frames of a new subscriber: snapshot (plain or reset), or the catch-up delta. */
function openingFrames(
  context: FrameContext,
  sessionId: string,
  cursor: number | undefined,
  query: OpeningQuery,
): { frame: string; cursor: number; entries: DaemonEntry[] } {
  const { reader } = context;
  const version = reader.historyVersion(sessionId);
  const maxSequence = reader.maxSequence(sessionId);
  const reason =
    cursor === undefined ? undefined : resetReason(cursor, query, { ...version, maxSequence });
  if (cursor !== undefined && cursor !== 0 && reason === undefined) {
    const data = deltaData(context, sessionId, cursor, maxSequence);
    const frame = formatEvent(STREAM_EVENTS.transcriptDelta, data, data.cursor);
    return { frame, cursor: data.cursor, entries: data.entries };
  }
  const page = reader.transcriptPage(sessionId, { limit: query.limit ?? TRANSCRIPT_DEFAULT_LIMIT });
  const data = {
    session_id: sessionId,
    workspace_id: context.store.getSession(sessionId)?.workspace_id ?? "",
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
  context.check(DaemonTranscriptSnapshotEvent, data);
  const frame = formatEvent(STREAM_EVENTS.transcriptSnapshot, data, page.max_sequence);
  // The reader builds pages of daemon entries.
  return { frame, cursor: page.max_sequence, entries: page.entries as DaemonEntry[] };
}

export function createStreamFrames(deps: {
  reader: SessionReader;
  store: SessionStore;
  validate: boolean;
  log: (line: string) => void;
}) {
  const context: FrameContext = {
    reader: deps.reader,
    store: deps.store,
    check(schema, value) {
      if (!deps.validate) return;
      const result = schema.safeParse(value);
      if (!result.success) deps.log(`[stream] event breaks the contract: ${result.error.message}`);
    },
  };
  return {
    delta: (sessionId: string, cursor: number, maxSequence: number, entries?: DaemonEntry[]) =>
      deltaData(context, sessionId, cursor, maxSequence, entries),
    session: (session: DaemonSession, told: CatalogTold) => sessionFrames(context, session, told),
    opening: (sessionId: string, cursor: number | undefined, query: OpeningQuery) =>
      openingFrames(context, sessionId, cursor, query),
    appends: (batch: AppendBatch, plan: AppendPlan) => appendFrames(context, batch, plan),
  };
}
