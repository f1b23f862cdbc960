// `GET /api/sessions/catalog-stream` (CompozyOS `StreamSessionCatalog`): wake signals for
// the session list, so a client re-reads its page when something changed instead of
// polling (ADR 0141). Each event names the session and its workspace and whether it was
// upserted or deleted; it carries no state — clients reconcile with the list they re-read.
// Changes are coalesced per session over a short window: a streaming turn changes its
// session many times a second, and one wake per window is all a list needs.
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { SessionHost } from "../acp/session-host";
import type { SessionStore } from "../domain/session-recorder-api";

export const CATALOG_CHANGED_EVENT = "session_catalog_changed";

/** How long changes of one session are gathered into one event. */
const CATALOG_COALESCE_MS = 250;

export type CatalogEvent = {
  kind: "upserted" | "deleted";
  workspace_id: string;
  session_id: string;
};

type Listener = (frame: string) => void;

export type CatalogStream = ReturnType<typeof createCatalogStream>;

export function createCatalogStream(deps: {
  host: Pick<SessionHost, "onSessionChanged">;
  store: Pick<SessionStore, "getSession">;
  keepaliveMs: number;
  coalesceMs?: number;
}) {
  const coalesceMs = deps.coalesceMs ?? CATALOG_COALESCE_MS;
  const listeners = new Set<Listener>();
  const closers = new Set<() => void>();
  // Sessions changed since the last flush; a deletion is remembered with its workspace,
  // which the store no longer knows once the flush runs.
  const pending = new Map<string, string | undefined>();
  let timer: NodeJS.Timeout | undefined;

  function eventOf(sessionId: string, removedFrom: string | undefined): CatalogEvent | undefined {
    const found = deps.store.getSession(sessionId);
    if (found !== undefined) {
      return { kind: "upserted", workspace_id: found.workspace_id, session_id: sessionId };
    }
    if (removedFrom === undefined) return undefined;
    return { kind: "deleted", workspace_id: removedFrom, session_id: sessionId };
  }

  function flush() {
    timer = undefined;
    const changes = [...pending];
    pending.clear();
    for (const [sessionId, removedFrom] of changes) {
      const event = eventOf(sessionId, removedFrom);
      if (event === undefined) continue;
      const frame = `event: ${CATALOG_CHANGED_EVENT}\ndata: ${JSON.stringify(event)}\n\n`;
      for (const listener of listeners) listener(frame);
    }
  }

  const unsubscribe = deps.host.onSessionChanged((sessionId, removedFrom) => {
    if (listeners.size === 0) return;
    pending.set(sessionId, removedFrom ?? pending.get(sessionId));
    timer ??= setTimeout(flush, coalesceMs);
  });

  return {
    handle(c: Context): Response {
      return streamSSE(c, async (stream) => {
        const queue: string[] = [": session catalog stream ready\n\n"];
        let wake: (() => void) | undefined;
        let ended = false;
        const listener: Listener = (frame) => {
          queue.push(frame);
          wake?.();
        };
        const end = () => {
          ended = true;
          wake?.();
        };
        listeners.add(listener);
        closers.add(end);
        stream.onAbort(end);
        const keepalive = setInterval(() => listener(": keepalive\n\n"), deps.keepaliveMs);
        try {
          while (!ended && !stream.aborted) {
            if (queue.length === 0) {
              await new Promise<void>((resolve) => {
                wake = resolve;
              });
              wake = undefined;
              continue;
            }
            const chunk = queue.join("");
            queue.length = 0;
            await stream.write(chunk);
          }
        } finally {
          clearInterval(keepalive);
          listeners.delete(listener);
          closers.delete(end);
        }
      });
    },

    subscriberCount: () => listeners.size,

    /** Ends every catalog stream (daemon shutdown); clients reconnect and re-read. */
    closeAll(): void {
      unsubscribe();
      clearTimeout(timer);
      for (const end of [...closers]) end();
    },
  };
}
