// The raw ledger, never folded: `…/history` and `…/events`.
import { z } from "zod";
import { Id, queryInt, Sequence, Timestamp } from "./primitives";

export const EVENT_SCHEMA = "compozy.session.event.v1";

export const LedgerEvent = z.object({
  id: z.string().min(1),
  session_id: Id,
  sequence: Sequence,
  turn_id: Id.optional(),
  type: z.string().min(1),
  content: z.looseObject({
    schema: z.literal(EVENT_SCHEMA),
    type: z.string().min(1),
    timestamp: Timestamp,
  }),
});
export type LedgerEvent = z.infer<typeof LedgerEvent>;

export const History = z.object({
  history: z.array(z.object({ turn_id: Id.nullable(), events: z.array(LedgerEvent) })),
});
export type History = z.infer<typeof History>;

export const HistoryQuery = z.strictObject({ turn_id: Id.optional() });
export type HistoryQuery = z.infer<typeof HistoryQuery>;

export const EventList = z.object({ events: z.array(LedgerEvent), has_more: z.boolean() });
export type EventList = z.infer<typeof EventList>;

export const EventsQuery = z.strictObject({
  turn_id: Id.optional(),
  type: z.string().min(1).optional(),
  after_sequence: queryInt(0, Number.MAX_SAFE_INTEGER).optional(),
  limit: queryInt(1, 1000).optional(),
});
export type EventsQuery = z.infer<typeof EventsQuery>;
