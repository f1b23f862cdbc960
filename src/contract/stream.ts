// The live session stream `GET …/stream?frames=transcript` (text/event-stream): event
// names and payloads (CompozyOS `internal/api/contract/session_transcript.go`, stream in
// `internal/api/core/session_stream*.go`, web `web/src/systems/session/hooks/`).

import { ErrorEnvelope } from "./error";
import { SessionEvent } from "./history";
import { isJsonObject } from "./json-value";
import { goBool, goSlice, Id, Int64, queryInt, Sequence } from "./primitives";
import { DaemonEntry, Entry, TRANSCRIPT_MAX_LIMIT } from "./transcript";
import { z } from "./zod";

export const STREAM_EVENTS = {
  transcriptSnapshot: "transcript_snapshot",
  transcriptDelta: "transcript_delta",
  /** Tideline extension, only to a client that asked (`APPEND_QUERY`): one string grew. */
  entryAppend: "entry_append",
  commandsChanged: "session_commands_changed",
  sessionStopped: "session_stopped",
  goalSnapshotChanged: "goal_snapshot_changed",
  /** Sent by CompozyOS when the daemon shuts the stream down; terminal like a stop. */
  done: "done",
  error: "error",
} as const;
export type StreamEventName = (typeof STREAM_EVENTS)[keyof typeof STREAM_EVENTS];

/** The longest the daemon stays silent on an open stream: a `: keepalive` comment. */
export const KEEPALIVE_MS = 20_000;

/** Why a snapshot replaced the client's transcript instead of a delta extending it. */
const SNAPSHOT_REASONS = [
  "fence_missing",
  "epoch_mismatch",
  "generation_mismatch",
  "sequence_reset",
] as const;
export type SnapshotReason = (typeof SNAPSHOT_REASONS)[number];

/**
 * The first frame without a cursor (`reset: false`), or a reset (`reset: true` and a
 * `reason`) when the client's fence does not match. SSE `id:` is `max_sequence`.
 */
export const TranscriptSnapshotEvent = z.object({
  session_id: Id,
  workspace_id: z.optional(z.string()),
  workspace_path: z.optional(z.string()),
  epoch: Int64,
  generation: Int64,
  entries: goSlice(Entry),
  max_sequence: Sequence,
  has_older: z.boolean(),
  next_before_sequence: z.optional(Sequence),
  reset: z.boolean(),
  reason: z.optional(z.string()),
});
export type TranscriptSnapshotEvent = z.infer<typeof TranscriptSnapshotEvent>;
export const DaemonTranscriptSnapshotEvent = z.extend(TranscriptSnapshotEvent, {
  entries: z.array(DaemonEntry),
  reason: z.optional(z.enum(SNAPSHOT_REASONS)),
});

/**
 * Upserts of every entry changed after the client's cursor, in batches of at most
 * `limit`; `has_more` says another batch follows at once. SSE `id:` is `cursor`.
 */
export const TranscriptDeltaEvent = z.object({
  session_id: Id,
  workspace_id: z.optional(z.string()),
  workspace_path: z.optional(z.string()),
  epoch: Int64,
  generation: Int64,
  entries: goSlice(Entry),
  cursor: Sequence,
  max_sequence: Sequence,
  has_more: z.boolean(),
});
export type TranscriptDeltaEvent = z.infer<typeof TranscriptDeltaEvent>;
export const DaemonTranscriptDeltaEvent = z.extend(TranscriptDeltaEvent, {
  entries: z.array(DaemonEntry),
});

/**
 * The query parameter by which a client asks for `entry_append` frames (a Tideline
 * extension, ADR 0200). CompozyOS reads named parameters only, so it ignores it and sends
 * its usual frames; a client must handle both.
 */
export const APPEND_QUERY = "tideline_append";

/** Keys an append's path may never name: a client walks the path into its own objects. */
const FORBIDDEN_PATH_KEYS = new Set(["__proto__", "prototype", "constructor"]);

/** Where in a part the grown string sits; absent means `["text"]`. */
const APPEND_DEFAULT_PATH = ["text"] as const;
const APPEND_PATH_MAX = 8;

/**
 * Entry `start_sequence` grew: the string at `path` of its part `part`, which was `offset`
 * UTF-16 code units long, now ends with `text`, and the entry's sequence is `sequence`. A
 * client whose copy does not have that string at that length has missed something and
 * reads the transcript again. The last frame of a batch carries `cursor` (and the SSE
 * `id:`): only then has the client everything up to it.
 */
export const EntryAppendEvent = z.strictObject({
  start_sequence: Sequence,
  sequence: Sequence,
  part: z.int().check(z.nonnegative()).check(z.lte(100_000)),
  path: z.optional(
    z
      .array(
        z
          .string()
          .check(z.minLength(1))
          .check(z.maxLength(200))
          .check(
            z.refine((key) => !FORBIDDEN_PATH_KEYS.has(key), { message: "forbidden path key" }),
          ),
      )
      .check(z.minLength(1))
      .check(z.maxLength(APPEND_PATH_MAX)),
  ),
  offset: z.int().check(z.nonnegative()),
  text: z.string().check(z.minLength(1)),
  cursor: z.optional(Sequence),
});
export type EntryAppendEvent = z.infer<typeof EntryAppendEvent>;

/** The string at `path` grown by `text`, in a copy of `container`; undefined when it does not fit. */
function grownAt(
  container: unknown,
  path: readonly string[],
  offset: number,
  text: string,
): unknown {
  const [key, ...rest] = path;
  if (key === undefined) {
    return typeof container === "string" && container.length === offset
      ? container + text
      : undefined;
  }
  if (FORBIDDEN_PATH_KEYS.has(key)) return undefined;
  if (!isJsonObject(container) || !Object.hasOwn(container, key)) return undefined;
  const inner = grownAt(container[key], rest, offset, text);
  return inner === undefined ? undefined : { ...container, [key]: inner };
}

/**
 * `entry` with `append` applied: the same entry when it already has that sequence or a
 * newer one, undefined when the append does not fit what it holds (a gap: read again).
 */
export function applyEntryAppend<E extends Entry>(
  entry: E,
  append: EntryAppendEvent,
): E | undefined {
  if (entry.start_sequence !== append.start_sequence) return undefined;
  if (entry.sequence >= append.sequence) return entry;
  const parts = entry.message.parts;
  const part = parts[append.part];
  if (part === undefined) return undefined;
  const grown = grownAt(part, append.path ?? APPEND_DEFAULT_PATH, append.offset, append.text);
  if (grown === undefined) return undefined;
  const nextParts = [...parts];
  nextParts[append.part] = grown as (typeof parts)[number];
  return {
    ...entry,
    sequence: append.sequence,
    message: { ...entry.message, parts: nextParts },
  };
}

/** The session's command catalog changed: re-read the session (and `…/commands`). */
export const SessionCommandsChangedEvent = z.object({ session_id: Id, revision: z.string() });
export type SessionCommandsChangedEvent = z.infer<typeof SessionCommandsChangedEvent>;

/**
 * The session is stopped: the daemon closes the stream after this frame and a client
 * must not reconnect until it resumes the session. A session event without content.
 */
export const SessionStoppedEvent = z.extend(SessionEvent, {
  type: z.literal("session_stopped"),
  content: z.optional(z.unknown()),
});
export type SessionStoppedEvent = z.infer<typeof SessionStoppedEvent>;

const StreamErrorEvent = ErrorEnvelope;

export const STREAM_PAYLOADS = {
  [STREAM_EVENTS.transcriptSnapshot]: TranscriptSnapshotEvent,
  [STREAM_EVENTS.transcriptDelta]: TranscriptDeltaEvent,
  [STREAM_EVENTS.entryAppend]: EntryAppendEvent,
  [STREAM_EVENTS.commandsChanged]: SessionCommandsChangedEvent,
  [STREAM_EVENTS.sessionStopped]: SessionStoppedEvent,
  [STREAM_EVENTS.error]: StreamErrorEvent,
} as const;

/**
 * The stream query. Resuming sends `after_sequence` (or the `Last-Event-ID` header) with
 * the `epoch` and `generation` of the transcript the client holds: the fence. A cursor
 * without both fence values is answered with a reset snapshot, reason `fence_missing`.
 */
export const StreamQuery = z.strictObject({
  frames: z.optional(z.literal("transcript")),
  after_sequence: z.optional(queryInt(0, Number.MAX_SAFE_INTEGER)),
  epoch: z.optional(queryInt(0, Number.MAX_SAFE_INTEGER)),
  generation: z.optional(queryInt(0, Number.MAX_SAFE_INTEGER)),
  limit: z.optional(queryInt(1, TRANSCRIPT_MAX_LIMIT)),
  /** Tideline extension: `true` asks for `entry_append` frames (ADR 0200). */
  [APPEND_QUERY]: z.optional(goBool),
  /** The bearer token, for an EventSource that cannot send headers (read by the auth guard). */
  access_token: z.optional(z.string().check(z.minLength(1))),
});
export type StreamQuery = z.infer<typeof StreamQuery>;

/** The query string a client resumes with, CompozyOS web's `buildSessionStreamUrl`. */
export function streamSearchParams(cursor: {
  afterSequence?: number;
  epoch?: number;
  generation?: number;
  limit?: number;
}): URLSearchParams {
  const params = new URLSearchParams({ frames: "transcript" });
  if (cursor.afterSequence !== undefined && cursor.afterSequence > 0) {
    params.set("after_sequence", String(cursor.afterSequence));
  }
  if (cursor.epoch !== undefined) params.set("epoch", String(cursor.epoch));
  if (cursor.generation !== undefined) params.set("generation", String(cursor.generation));
  if (cursor.limit !== undefined) params.set("limit", String(cursor.limit));
  return params;
}
