// @vitest-environment jsdom
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { act, renderHook } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { daemon, mockDaemon } from "../testing/msw";
import { AT, sessionEnvelope } from "../testing/sessions";
import { STOPPED_POLL_MS, sessionQueries } from "./session-queries";
import type { EventSourceLike } from "./session-stream";
import { useSessionStream } from "./use-session-stream";

type Fake = EventSourceLike & {
  url: string;
  closed: boolean;
  emit: (name: string, data: unknown) => void;
};

let sources: Fake[];
const createSource = (url: string): EventSourceLike => {
  const listeners = new Map<string, (event: MessageEvent) => void>();
  const source: Fake = {
    url,
    closed: false,
    onopen: null,
    onerror: null,
    addEventListener: (name, listener) => listeners.set(name, listener),
    close() {
      source.closed = true;
    },
    emit: (name, data) =>
      listeners.get(name)?.(new MessageEvent(name, { data: JSON.stringify(data) })),
  };
  sources.push(source);
  return source;
};

const S1 = "/api/workspaces/w1/sessions/s1";
// The hook re-reads the session when its stream opens.
mockDaemon(http.get(S1, () => HttpResponse.json(sessionEnvelope("active"))));

beforeEach(() => {
  vi.useFakeTimers();
  sources = [];
});
afterEach(() => vi.useRealTimers());

describe("useSessionStream", () => {
  it("reports connecting, open and reconnecting, and closes the source on unmount", () => {
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result, unmount } = renderHook(
      () => useSessionStream({ workspaceId: "w1", sessionId: "s1" }, createSource),
      { wrapper },
    );
    expect(result.current.state).toBe("connecting");
    act(() => sources[0]?.onopen?.(new Event("open")));
    expect(result.current.state).toBe("open");
    act(() => sources[0]?.onerror?.(new Event("error")));
    expect(result.current.state).toBe("reconnecting");
    act(() => vi.advanceTimersByTime(500));
    act(() => sources[1]?.onopen?.(new Event("open")));
    expect(result.current.state).toBe("open");
    unmount();
    expect(sources.every((source) => source.closed)).toBe(true);
  });

  it("when a stopped session is resumed elsewhere (another tab, the CLI), then this tab's stream reopens", async () => {
    let state: "active" | "stopped" = "stopped";
    daemon.use(http.get(S1, () => HttpResponse.json(sessionEnvelope(state))));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(["sessions", "detail", "s1"], sessionEnvelope("stopped"));
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(
      () => {
        // The page's own read of the session (the header's), which polls while stopped.
        useQuery(sessionQueries.detail({ workspaceId: "w1", sessionId: "s1" }));
        return useSessionStream({ workspaceId: "w1", sessionId: "s1" }, createSource);
      },
      { wrapper },
    );
    act(() => sources[0]?.onopen?.(new Event("open")));
    act(() =>
      sources[0]?.emit("session_stopped", {
        id: "",
        session_id: "s1",
        sequence: 0,
        turn_id: "",
        type: "session_stopped",
        agent_name: "demo",
        content: null,
        timestamp: AT,
      }),
    );
    expect(result.current.state).toBe("stopped");
    expect(sources).toHaveLength(1);

    // The CLI resumes it: nothing arrives on this tab's (closed) stream.
    state = "active";
    await act(async () => {
      await vi.advanceTimersByTimeAsync(STOPPED_POLL_MS + 100);
    });
    expect(sources).toHaveLength(2);
    expect(result.current.state).toBe("connecting");
  });
});
