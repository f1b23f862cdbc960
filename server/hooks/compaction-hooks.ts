// context.pre_compact / context.post_compact (ADR 0081): derived from committed ledger
// rows, never from frames. The `session.compaction_fired` row exists once per compaction
// id and fires pre; the snapshot marked `terminal: true` (the first terminal status)
// exists once too and fires post. Corrections and restarts add neither row, so nothing
// fires twice. Hooks run after the commit, off the ingest path: the commit listener
// only queues, and nothing a hook does reaches the ledger.
// The rows are read in compaction-hook-events.ts, the payload built in
// compaction-hook-payload.ts, and runs wait in hook-queue.ts.

import type {
  CommitNotice,
  SessionReader,
  SessionRecorder,
  SessionStore,
} from "../domain/session-recorder-api";
import { type CompactionHookEventRow, compactionHookEvents } from "./compaction-hook-events";
import { type CompactionHookPayload, createPayloadBuilder } from "./compaction-hook-payload";
import type { HookDeclaration } from "./hook-config";
import { createHookQueue } from "./hook-queue";
import { type HookRunResult, runHook } from "./hook-runner";

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

/** A failed run's warning: which hook, for what, and the tail of its stderr. */
function failureLine(
  declaration: HookDeclaration,
  payload: CompactionHookPayload,
  r: Extract<HookRunResult, { ok: false }>,
): string {
  const stderr = r.stderr.trim() === "" ? "" : `; stderr: ${r.stderr.trim().slice(-500)}`;
  return (
    `warning: hook ${declaration.name} (${payload.event}, session ${payload.session_id}, ` +
    `compaction ${payload.compaction_id}) ${r.reason}${stderr}`
  );
}

export function startCompactionHooks(options: CompactionHooksOptions): CompactionHooks {
  const { declarations, store, reader, log } = options;
  const payloadFor = createPayloadBuilder({
    store,
    reader,
    now: options.now ?? (() => new Date()),
  });
  const maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
  const queue = createHookQueue(maxPending);
  const runOptions = options.env === undefined ? {} : { env: options.env };
  let closed = false;

  function dispatch(event: CompactionHookEventRow) {
    const payload = payloadFor(event);
    for (const declaration of declarations) {
      if (declaration.event !== event.event) continue;
      if (declaration.compactionTrigger !== undefined) {
        if (declaration.compactionTrigger !== payload.trigger) continue;
      }
      const queued = queue.enqueue(event.sessionId, async () => {
        try {
          const result = await runHook(declaration, payload, runOptions);
          if (!result.ok) log(failureLine(declaration, payload, result));
        } catch (error) {
          log(`warning: hook ${declaration.name} failed: ${String(error)}`);
        }
      });
      if (!queued) {
        log(`warning: hook ${declaration.name} dropped: ${maxPending} hook runs already pending`);
      }
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
      await queue.drain();
    },
  };
}
