// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { EventSourceLike } from "./session-stream";
import { useSessionStream } from "./use-session-stream";

type Fake = EventSourceLike & { url: string; closed: boolean };

let sources: Fake[];
const createSource = (url: string): EventSourceLike => {
  const source: Fake = {
    url,
    closed: false,
    onopen: null,
    onerror: null,
    addEventListener: () => {},
    close() {
      source.closed = true;
    },
  };
  sources.push(source);
  return source;
};

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
});
