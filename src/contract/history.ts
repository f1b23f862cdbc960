// The raw ledger read surfaces, never folded: `GET …/events` and `GET …/history`
// (CompozyOS `SessionEventPayload`, `TurnHistoryPayload`). A compaction appears here once
// per snapshot (one `compaction` row per change of status, summary or error), never as
// streamed chunks, and with the same redaction as the Compaction item.

import { Count, goSlice, Id, queryInt, Sequence, Timestamp, TurnId } from "./primitives";
import { z } from "./zod";

export const EVENT_SCHEMA = "compozy.session.event.v1";

/** The canonical content every ledger row carries; the rest depends on its `type`. */
const EventContent = z.looseObject({
  schema: z.literal(EVENT_SCHEMA),
  type: z.string().check(z.minLength(1)),
  timestamp: Timestamp,
});

/**
 * One session event. `turn_id` is `""` for a row outside any turn; `content` stays opaque
 * here (old rows keep old payloads) and is read with the helpers below.
 */
export const SessionEvent = z.object({
  id: z.string(),
  session_id: Id,
  sequence: Sequence,
  turn_id: TurnId,
  type: z.string().check(z.minLength(1)),
  agent_name: z.string(),
  workspace_id: z.optional(z.string()),
  workspace_path: z.optional(z.string()),
  spawn_depth: z.optional(Count),
  content: z.unknown(),
  stop_reason: z.optional(z.string()),
  stop_detail: z.optional(z.string()),
  failure: z.nullish(z.looseObject({ kind: z.string(), summary: z.optional(z.string()) })),
  timestamp: Timestamp,
});
export type SessionEvent = z.infer<typeof SessionEvent>;

/** What the reference daemon sends for a stored row: an id, a depth and canonical content. */
export const DaemonSessionEvent = z.extend(SessionEvent, {
  id: Id,
  spawn_depth: Count,
  content: EventContent,
});
export type DaemonSessionEvent = z.infer<typeof DaemonSessionEvent>;

export const EventList = z.object({ events: goSlice(SessionEvent) });
export type EventList = z.infer<typeof EventList>;
export const DaemonEventList = z.object({ events: z.array(DaemonSessionEvent) });

const TurnHistory = z.object({ turn_id: TurnId, events: goSlice(SessionEvent) });
export const History = z.object({ history: goSlice(TurnHistory) });
export type History = z.infer<typeof History>;
export const DaemonHistory = z.object({
  history: z.array(z.object({ turn_id: TurnId, events: z.array(DaemonSessionEvent) })),
});

export const EVENTS_DEFAULT_LIMIT = 200;
const EVENTS_MAX_LIMIT = 1000;
const ARCHIVE_SELECTIONS = ["active", "archived", "all"] as const;

/**
 * `GET …/events` and `GET …/history` share one filter (CompozyOS `ParseSessionEventQuery`):
 * the newest `limit` matching records (events) or turns (history), oldest first, after
 * `after_sequence` and since `since`. There is no `has_more`: a client pages forward with
 * `after_sequence` set to the last sequence it holds.
 */
export const EventsQuery = z.strictObject({
  since: z.optional(Timestamp),
  limit: z.optional(queryInt(1, EVENTS_MAX_LIMIT)),
  after_sequence: z.optional(queryInt(0, Number.MAX_SAFE_INTEGER)),
  type: z.optional(z.string().check(z.minLength(1)).check(z.maxLength(200))),
  agent_name: z.optional(z.string().check(z.minLength(1)).check(z.maxLength(200))),
  turn_id: z.optional(Id.check(z.maxLength(200))),
  archive: z.optional(z.enum(ARCHIVE_SELECTIONS)),
});
export type EventsQuery = z.infer<typeof EventsQuery>;

const COMPACTION_EVENT = "compaction";
export const COMPACTION_FIRED_EVENT = "session.compaction_fired";

/** A `compaction` row's content: one snapshot of the id (October release, "Ledger rows"). */
export const CompactionRowContent = z.extend(EventContent, {
  type: z.literal(COMPACTION_EVENT),
  compaction_id: Id,
  status: z.string().check(z.minLength(1)),
  summary: z.optional(z.string()),
  error: z.optional(z.string()),
  terminal: z.optional(z.literal(true)),
});
export type CompactionRowContent = z.infer<typeof CompactionRowContent>;

const COMPACTION_TRIGGERS = ["agent", "requested"] as const;
export const CompactionTrigger = z.enum(COMPACTION_TRIGGERS);
export type CompactionTrigger = z.infer<typeof CompactionTrigger>;

/** `content.raw` of `session.compaction_fired`: the context figures are `null` when unknown. */
export const CompactionFiredRaw = z.object({
  compaction_id: Id,
  trigger: CompactionTrigger,
  context_used: z.nullable(Count),
  context_size: z.nullable(Count),
});
export type CompactionFiredRaw = z.infer<typeof CompactionFiredRaw>;
const CompactionFiredContent = z.extend(EventContent, {
  type: z.literal(COMPACTION_FIRED_EVENT),
  raw: CompactionFiredRaw,
});

/** The fired payload of an event, or undefined (another type, or an old opaque row). */
export function compactionFiredOf(event: SessionEvent): CompactionFiredRaw | undefined {
  if (event.type !== COMPACTION_FIRED_EVENT) return undefined;
  const parsed = CompactionFiredContent.safeParse(event.content);
  return parsed.success ? parsed.data.raw : undefined;
}

/** The compaction snapshot a `compaction` row records, or undefined. */
export function compactionRowOf(event: SessionEvent): CompactionRowContent | undefined {
  if (event.type !== COMPACTION_EVENT) return undefined;
  const parsed = CompactionRowContent.safeParse(event.content);
  return parsed.success ? parsed.data : undefined;
}
