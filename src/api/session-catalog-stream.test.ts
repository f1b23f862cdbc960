import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import {
  CATALOG_CHANGED_EVENT,
  CATALOG_STREAM_PATH,
  type CatalogStreamStatus,
  catalogStreamUrl,
  openCatalogStream,
} from "./session-catalog-stream";
import { sessionQueries } from "./session-queries";
import type { EventSourceLike } from "./session-stream";

class FakeSource implements EventSourceLike {
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  readonly listeners = new Map<string, ((event: MessageEvent) => void)[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string, data: string) {
    for (const listener of this.listeners.get(type) ?? []) {
      listener(new MessageEvent(type, { data }));
    }
  }
  close() {
    this.closed = true;
  }
}

function setup() {
  const client = new QueryClient();
  const invalidate = vi.spyOn(client, "invalidateQueries");
  const statuses: CatalogStreamStatus[] = [];
  let source: FakeSource | undefined;
  const close = openCatalogStream(
    client,
    (status) => statuses.push(status),
    (url) => {
      source = new FakeSource(url);
      return source;
    },
  );
  if (source === undefined) throw new Error("no source opened");
  const listRereads = () =>
    invalidate.mock.calls.filter(
      ([filters]) =>
        JSON.stringify(filters?.queryKey) === JSON.stringify(sessionQueries.list().queryKey),
    ).length;
  return { source, statuses, close, listRereads };
}

describe("openCatalogStream", () => {
  it("when the stream opens (or reopens), then it is live and the list is re-read for what was missed", () => {
    const { source, statuses, listRereads } = setup();
    expect(source.url).toBe(CATALOG_STREAM_PATH);
    expect(listRereads()).toBe(0);
    source.onopen?.(new Event("open"));
    expect(statuses).toEqual(["live"]);
    expect(listRereads()).toBe(1);
    source.onerror?.(new Event("error"));
    source.onopen?.(new Event("open"));
    expect(statuses).toEqual(["live", "stale", "live"]);
    expect(listRereads()).toBe(2);
  });

  it("when a catalog change arrives, then the list is re-read; a malformed one changes nothing", () => {
    const { source, listRereads } = setup();
    source.emit(
      CATALOG_CHANGED_EVENT,
      JSON.stringify({ kind: "upserted", workspace_id: "w1", session_id: "s1" }),
    );
    source.emit(
      CATALOG_CHANGED_EVENT,
      JSON.stringify({ kind: "deleted", workspace_id: "w1", session_id: "s1" }),
    );
    expect(listRereads()).toBe(2);
    for (const bad of [
      "not json",
      "null",
      JSON.stringify({ kind: "exploded", workspace_id: "w1", session_id: "s1" }),
      JSON.stringify({ kind: "upserted", workspace_id: "", session_id: "s1" }),
      JSON.stringify({ kind: "upserted", session_id: "s1" }),
    ]) {
      source.emit(CATALOG_CHANGED_EVENT, bad);
    }
    expect(listRereads()).toBe(2);
  });

  it("when closed, then the EventSource is closed", () => {
    const { source, close } = setup();
    close();
    expect(source.closed).toBe(true);
  });

  it("when a token is known, then it rides as access_token (EventSource sends no headers)", () => {
    expect(catalogStreamUrl("t0k&n")).toBe(`${CATALOG_STREAM_PATH}?access_token=t0k%26n`);
  });
});
