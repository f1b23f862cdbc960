// What the CLI reads from a daemon, as lenient schemas: only the fields it prints or
// decides on, every other field passed through untouched (so `-o json` shows the daemon's
// own payload). The same CLI talks to the reference daemon and to CompozyOS (ADR 0082),
// so shapes where the two may differ (prompt answers, event fields) accept both.
import { z } from "zod";

export const ErrorBody = z.looseObject({
  error: z.string(),
  code: z.string().optional(),
});

export const Session = z.looseObject({
  id: z.string().min(1),
  workspace_id: z.string().min(1),
  agent_name: z.string().optional(),
  name: z.string().nullish(),
  state: z.string().optional(),
  activity: z.looseObject({ turn_id: z.string().optional() }).nullish(),
  available_commands: z.array(z.looseObject({ name: z.string() })).nullish(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type Session = z.infer<typeof Session>;

export const SessionEnvelope = z.looseObject({ session: Session });

export const SessionPage = z.looseObject({
  sessions: z.array(Session),
  page: z
    .looseObject({ has_more: z.boolean().optional(), next_cursor: z.string().nullish() })
    .optional(),
});
export type SessionPage = z.infer<typeof SessionPage>;

export const CompactAccepted = z.looseObject({
  session_id: z.string().min(1),
  prompt_id: z.string().min(1),
  command: z.string().min(1),
  status: z.string().optional(),
});
export type CompactAccepted = z.infer<typeof CompactAccepted>;

/** The reference daemon's `{prompt_id}` or CompozyOS's `{prompt: {new_turn_id, …}}`. */
export const PromptAccepted = z.looseObject({
  prompt_id: z.string().optional(),
  status: z.string().optional(),
  prompt: z
    .looseObject({
      new_turn_id: z.string().optional(),
      status: z.string().optional(),
      delivery: z.string().optional(),
    })
    .optional(),
});
export type PromptAccepted = z.infer<typeof PromptAccepted>;

export const SessionEvent = z.looseObject({
  id: z.string().optional(),
  sequence: z.number().int(),
  // CompozyOS writes "" for an event outside any turn.
  turn_id: z.string().nullish(),
  type: z.string(),
  agent_name: z.string().optional(),
  timestamp: z.string().optional(),
  stop_reason: z.string().optional(),
  content: z.unknown(),
});
export type SessionEvent = z.infer<typeof SessionEvent>;

export const EventList = z.looseObject({
  events: z.array(SessionEvent),
  has_more: z.boolean().optional(),
});

export const History = z.looseObject({
  history: z.array(z.looseObject({ turn_id: z.string().nullish(), events: z.array(SessionEvent) })),
});
export type History = z.infer<typeof History>;

const Count = z.number().nullish();

export const SessionUsage = z.looseObject({
  context: z
    .looseObject({ state: z.string().optional(), used: Count, size: Count, ratio: Count })
    .nullish(),
  input_tokens: Count,
  output_tokens: Count,
  total_tokens: Count,
  cache_read_tokens: Count,
  cache_write_tokens: Count,
  total_cost: Count,
  cost_currency: z.string().nullish(),
  turn_count: Count,
});
export type SessionUsage = z.infer<typeof SessionUsage>;

export const UsageEnvelope = z.looseObject({ usage: SessionUsage });

export const UsageTurns = z.looseObject({
  turns: z.array(
    z.looseObject({
      turn_id: z.string(),
      sequence: z.number().optional(),
      usage: z
        .looseObject({
          input_tokens: Count,
          output_tokens: Count,
          total_tokens: Count,
          context_used: Count,
          context_size: Count,
          cost_amount: Count,
          timestamp: z.string().optional(),
        })
        .nullish(),
    }),
  ),
  compactions: z
    .array(
      z.looseObject({
        turn_id: z.string().nullish(),
        sequence: z.number().optional(),
        at: z.string().optional(),
        compaction_id: z.string(),
        trigger: z.string().optional(),
        status: z.string().optional(),
        context_used: Count,
        context_size: Count,
      }),
    )
    .default([]),
});
export type UsageTurns = z.infer<typeof UsageTurns>;

const AuditItem = z.looseObject({
  key: z.string(),
  kind: z.string(),
  label: z.string(),
  status: z.string(),
  why: z.string().optional(),
  pinned: z.boolean().optional(),
});
export type AuditItem = z.infer<typeof AuditItem>;

/** The compaction audit (a Tideline extension; CompozyOS has no such route). */
export const CompactionAudit = z.looseObject({
  compaction_id: z.string(),
  summary_readable: z.boolean(),
  span: z.looseObject({
    first_turn_number: z.number(),
    last_turn_number: z.number(),
    turns: z.number(),
    messages: z.number(),
  }),
  items: z.array(AuditItem),
  counts: z.looseObject({
    total: z.number(),
    kept: z.number(),
    dropped: z.number(),
    unchecked: z.number(),
  }),
  omitted: z.number().optional(),
  pinned_dropped: z.array(z.string()),
  previous: z.looseObject({ compaction_id: z.string(), lost: z.array(AuditItem) }).nullish(),
});
export type CompactionAudit = z.infer<typeof CompactionAudit>;
