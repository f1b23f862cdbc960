import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { usageQueries } from "./usage-queries";

const ref = { workspaceId: "ws 1", sessionId: "s1" };

function stubFetch(body: unknown, status = 200) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe("usageQueries", () => {
  it("keys usage and turns under the session, as the stream hook invalidates them", () => {
    expect(usageQueries.usage(ref).queryKey).toEqual(["sessions", "usage", "s1"]);
    expect(usageQueries.turns(ref).queryKey).toEqual(["sessions", "usage-turns", "s1"]);
    expect(usageQueries.usage(ref).staleTime).toBe(Number.POSITIVE_INFINITY);
    expect(usageQueries.turns(ref).staleTime).toBe(Number.POSITIVE_INFINITY);
  });

  it("when usage is read, then it is parsed and the envelope is unwrapped by select", async () => {
    const fetchMock = stubFetch({ usage: { context: { state: "unknown" }, turn_count: 0 } });
    const client = new QueryClient();
    const data = await client.fetchQuery(usageQueries.usage(ref));
    expect(data.usage.context?.state).toBe("unknown");
    expect(usageQueries.usage(ref).select?.(data)).toEqual(data.usage);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/workspaces/ws%201/sessions/s1/usage");
    expect(init.signal).toBeInstanceOf(AbortSignal);
  });

  it("when the usage payload is malformed, then the query fails", async () => {
    stubFetch({ usage: { context: { state: "full" } } });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await expect(client.fetchQuery(usageQueries.usage(ref))).rejects.toMatchObject({
      code: "invalid_response",
    });
  });

  it("when turns are read, then the unwrapped turns and markers are parsed", async () => {
    const fetchMock = stubFetch({ turns: [{ turn_id: "t1", sequence: 3 }], compactions: [] });
    const client = new QueryClient();
    const data = await client.fetchQuery(usageQueries.turns(ref));
    expect(data?.turns).toHaveLength(1);
    const [url] = fetchMock.mock.calls[0] as unknown as [string];
    expect(url).toBe("/api/workspaces/ws%201/sessions/s1/usage/turns");
  });
});
