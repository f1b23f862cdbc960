// The live session stream (`…/stream`, text/event-stream): event names and payloads.
import { z } from "zod";
import { ErrorEnvelope } from "./error";
import { Count, Id, queryInt, Sequence } from "./primitives";
import { Session } from "./session";
import { Entry } from "./transcript";

export const STREAM_EVENTS = {
  transcriptSnapshot: "transcript_snapshot",
  transcriptDelta: "transcript_delta",
  usageChanged: "session_usage_changed",
  sessionUpdated: "session_updated",
  error: "error",
} as const;
export type StreamEventName = (typeof STREAM_EVENTS)[keyof typeof STREAM_EVENTS];

/** The longest the daemon stays silent on an open stream (a `: keepalive` comment). */
export const KEEPALIVE_MS = 15_000;

export const TranscriptSnapshotEvent = z.object({
  session_id: Id,
  epoch: z.string(),
  generation: Count,
  entries: z.array(Entry),
  max_sequence: Sequence,
  has_older: z.boolean(),
  next_before_sequence: Sequence.optional(),
});
export type TranscriptSnapshotEvent = z.infer<typeof TranscriptSnapshotEvent>;

export const TranscriptDeltaEvent = z.object({
  session_id: Id,
  epoch: z.string(),
  generation: Count,
  entries: z.array(Entry),
  cursor: Sequence,
  max_sequence: Sequence,
});
export type TranscriptDeltaEvent = z.infer<typeof TranscriptDeltaEvent>;

export const UsageChangedEvent = z.object({
  sequence: Sequence,
  turn_id: Id.optional(),
  kind: z.enum(["usage", "compaction", "prompt_completed"]),
});
export type UsageChangedEvent = z.infer<typeof UsageChangedEvent>;

export const SessionUpdatedEvent = z.object({ session: Session });
export type SessionUpdatedEvent = z.infer<typeof SessionUpdatedEvent>;

export const StreamErrorEvent = ErrorEnvelope;

export const STREAM_PAYLOADS = {
  [STREAM_EVENTS.transcriptSnapshot]: TranscriptSnapshotEvent,
  [STREAM_EVENTS.transcriptDelta]: TranscriptDeltaEvent,
  [STREAM_EVENTS.usageChanged]: UsageChangedEvent,
  [STREAM_EVENTS.sessionUpdated]: SessionUpdatedEvent,
  [STREAM_EVENTS.error]: StreamErrorEvent,
} as const;

export const StreamQuery = z.strictObject({
  after_sequence: queryInt(0, Number.MAX_SAFE_INTEGER).optional(),
  /** The bearer token, for an EventSource that cannot send headers (read by the auth guard). */
  access_token: z.string().min(1).optional(),
});
export type StreamQuery = z.infer<typeof StreamQuery>;
