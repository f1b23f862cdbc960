// Which committed ledger rows fire a compaction hook (ADR 0081): a
// `session.compaction_fired` row fires context.pre_compact, the snapshot marked
// `terminal: true` fires context.post_compact. Each exists once per compaction id.
import { isJsonObject, type JsonObject } from "../../src/contract/json-value";
import type { LedgerRow } from "../domain/session-recorder-api";
import type { CompactionHookEvent } from "./hook-config";

export type CompactionTriggerValue = "requested" | "agent";

/** What one committed row means for hooks, before the session fields are added. */
export type CompactionHookEventRow = {
  event: CompactionHookEvent;
  sessionId: string;
  turnId: string | null;
  compactionId: string;
  /** Only on pre: the fired row carries it. Post looks it up. */
  trigger?: CompactionTriggerValue;
  status?: string;
  summary?: string;
  error?: string;
};

type Content = JsonObject;
const text = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/** A row's payload, whether stored flat or under `raw` (the fired event's wire form). */
function payloadOf(row: LedgerRow): Content {
  return isJsonObject(row.content.raw) ? row.content.raw : row.content;
}

/** The hook events a commit implies, pre before post (a terminal-first id has both). */
export function compactionHookEvents(rows: readonly LedgerRow[]): CompactionHookEventRow[] {
  const pre: CompactionHookEventRow[] = [];
  const post: CompactionHookEventRow[] = [];
  for (const row of rows) {
    const content = payloadOf(row);
    const compactionId = text(content.compaction_id);
    if (compactionId === undefined) continue;
    const base = { sessionId: row.session_id, turnId: row.turn_id, compactionId };
    if (row.type === "session.compaction_fired") {
      const trigger = content.trigger === "requested" ? "requested" : "agent";
      pre.push({ event: "context.pre_compact", ...base, trigger });
    } else if (row.type === "compaction" && content.terminal === true) {
      const status = text(content.status);
      const summary = text(content.summary);
      const error = text(content.error);
      post.push({
        event: "context.post_compact",
        ...base,
        ...(status === undefined ? {} : { status }),
        ...(summary === undefined ? {} : { summary }),
        ...(error === undefined ? {} : { error }),
      });
    }
  }
  return [...pre, ...post];
}
