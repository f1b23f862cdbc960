// The session list's wake signals (`GET /api/sessions/catalog-stream`, ADR 0141), outside
// React so it can be tested with a fake EventSource. Each `session_catalog_changed`
// re-reads the list; so does every (re)connect, since changes while disconnected were
// missed. The events carry no state: the list the daemon answers is the truth.
import type { QueryClient } from "@tanstack/react-query";
import { SessionCatalogEvent } from "../contract/session";
import { apiToken, apiUrl } from "./http";
import { sessionQueries } from "./session-queries";
import type { EventSourceFactory } from "./session-stream";

export const CATALOG_STREAM_PATH = "/api/sessions/catalog-stream";
export const CATALOG_CHANGED_EVENT = "session_catalog_changed";

/** `live` while connected; `stale` before the first open and after an error. */
export type CatalogStreamStatus = "live" | "stale";

export function catalogStreamUrl(token = apiToken()): string {
  return apiUrl(CATALOG_STREAM_PATH, { access_token: token });
}

function defaultFactory(url: string) {
  return new EventSource(url);
}

/** Opens the stream; returns its close. `onStatus` hears every connection change. */
export function openCatalogStream(
  client: QueryClient,
  onStatus: (status: CatalogStreamStatus) => void,
  createSource: EventSourceFactory = defaultFactory,
): () => void {
  const reread = () => client.invalidateQueries({ queryKey: sessionQueries.list().queryKey });
  const source = createSource(catalogStreamUrl());
  source.onopen = () => {
    onStatus("live");
    void reread();
  };
  source.onerror = () => onStatus("stale");
  source.addEventListener(CATALOG_CHANGED_EVENT, (event) => {
    let data: unknown;
    try {
      data = JSON.parse(String(event.data));
    } catch {
      return;
    }
    // A malformed wake is ignored: it could only make the list re-read for nothing.
    if (!SessionCatalogEvent.safeParse(data).success) return;
    void reread();
  });
  return () => source.close();
}
