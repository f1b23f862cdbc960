// context.pre_compact / context.post_compact (ADR 0081): derived from committed ledger
// rows, never from frames. The `session.compaction_fired` row exists once per compaction
// id and fires pre; the snapshot marked `terminal: true` (the first terminal status)
// exists once too and fires post. Corrections and restarts add neither row, so nothing
// fires twice. Hooks run after the commit, off the ingest path: the commit listener
// only queues, and nothing a hook does reaches the ledger.

import { isJsonObject, type JsonObject } from "../../src/contract/json-value";
import type {
  CommitNotice,
  LedgerRow,
  SessionReader,
  SessionRecorder,
  SessionStore,
} from "../domain/session-recorder-api";
import type { CompactionHookEvent, HookDeclaration } from "./hook-config";
import { type HookRunResult, runHook } from "./hook-runner";

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

export type CompactionHookPayload = {
  event: CompactionHookEvent;
  timestamp: string;
  session_id: string;
  session_name?: string;
  agent_name?: string;
  workspace_id?: string;
  workspace?: string;
  /** `""` for a compaction between turns, as CompozyOS writes an empty turn id. */
  turn_id: string;
  compaction_id: string;
  trigger: CompactionTriggerValue;
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

export type CompactionHooks = {
  /**
   * Stops listening, then waits for the hooks of commits already made (the daemon's own
   * close of open compactions at shutdown fires post too); each is bounded by its timeout.
   */
  close(): Promise<void>;
};

export type CompactionHooksOptions = {
  declarations: readonly HookDeclaration[];
  recorder: SessionRecorder;
  store: SessionStore;
  reader: SessionReader;
  log: (line: string) => void;
  now?: () => Date;
  env?: NodeJS.ProcessEnv;
  /** Hook runs waiting or running at once; past it a run is dropped with a warning. */
  maxPending?: number;
};

const DEFAULT_MAX_PENDING = 64;

export function startCompactionHooks(options: CompactionHooksOptions): CompactionHooks {
  const { declarations, store, reader, log } = options;
  const now = options.now ?? (() => new Date());
  const maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
  const triggers = new Map<string, CompactionTriggerValue>();
  /** One chain per session: its hooks run one at a time, in commit order (pre, then post). */
  const chains = new Map<string, Promise<void>>();
  let pending = 0;
  let closed = false;

  function triggerOf(event: CompactionHookEventRow): CompactionTriggerValue {
    const key = `${event.sessionId}\u0000${event.compactionId}`;
    if (event.trigger !== undefined) {
      triggers.set(key, event.trigger);
      return event.trigger;
    }
    const known = triggers.get(key);
    if (known !== undefined) return known;
    // Pre fired before a restart: the usage markers keep each compaction's trigger.
    const marker = reader
      .usageTurns(event.sessionId)
      .compactions.find((m) => m.compaction_id === event.compactionId);
    return marker?.trigger === "requested" ? "requested" : "agent";
  }

  function payloadFor(event: CompactionHookEventRow): CompactionHookPayload {
    const session = store.getSession(event.sessionId);
    const workspace = session ? store.getWorkspace(session.workspace_id) : undefined;
    return {
      event: event.event,
      timestamp: now().toISOString(),
      session_id: event.sessionId,
      ...(session?.name === undefined ? {} : { session_name: session.name }),
      ...(session === undefined ? {} : { agent_name: session.agent_name }),
      ...(session === undefined ? {} : { workspace_id: session.workspace_id }),
      ...(workspace === undefined ? {} : { workspace: workspace.root_dir }),
      turn_id: event.turnId ?? "",
      compaction_id: event.compactionId,
      trigger: triggerOf(event),
      ...(event.status === undefined ? {} : { status: event.status }),
      ...(event.summary === undefined ? {} : { summary: event.summary }),
      ...(event.error === undefined ? {} : { error: event.error }),
    };
  }

  function report(declaration: HookDeclaration, payload: CompactionHookPayload, r: HookRunResult) {
    if (r.ok) return;
    const stderr = r.stderr.trim() === "" ? "" : `; stderr: ${r.stderr.trim().slice(-500)}`;
    log(
      `warning: hook ${declaration.name} (${payload.event}, session ${payload.session_id}, ` +
        `compaction ${payload.compaction_id}) ${r.reason}${stderr}`,
    );
  }

  function enqueue(sessionId: string, work: () => Promise<void>) {
    const previous = chains.get(sessionId) ?? Promise.resolve();
    const next = previous.then(work).finally(() => {
      if (chains.get(sessionId) === next) chains.delete(sessionId);
    });
    chains.set(sessionId, next);
  }

  function dispatch(event: CompactionHookEventRow) {
    const payload = payloadFor(event);
    for (const declaration of declarations) {
      if (declaration.event !== event.event) continue;
      if (declaration.compactionTrigger !== undefined) {
        if (declaration.compactionTrigger !== payload.trigger) continue;
      }
      if (pending >= maxPending) {
        log(`warning: hook ${declaration.name} dropped: ${maxPending} hook runs already pending`);
        continue;
      }
      pending += 1;
      enqueue(event.sessionId, async () => {
        try {
          report(
            declaration,
            payload,
            await runHook(
              declaration,
              payload,
              options.env === undefined ? {} : { env: options.env },
            ),
          );
        } catch (error) {
          log(`warning: hook ${declaration.name} failed: ${String(error)}`);
        } finally {
          pending -= 1;
        }
      });
    }
  }

  function onCommit(notice: CommitNotice) {
    const events = compactionHookEvents(notice.rows);
    if (events.length === 0 || closed) return;
    // The commit listener returns at once; the payload (a few store reads) and every
    // process start happen on a later tick, never inside the recorder's call.
    setImmediate(() => {
      if (closed) return;
      for (const event of events) {
        try {
          dispatch(event);
        } catch (error) {
          log(`warning: compaction hooks for session ${event.sessionId}: ${String(error)}`);
        }
      }
    });
  }

  const unsubscribe = declarations.length === 0 ? () => {} : options.recorder.onCommit(onCommit);
  return {
    async close() {
      unsubscribe();
      // Commits heard so far dispatch on the next tick; let them, then stop taking more.
      await new Promise((resolve) => setImmediate(resolve));
      closed = true;
      await Promise.allSettled([...chains.values()]);
    },
  };
}
