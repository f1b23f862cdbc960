import { MutationObserver, QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { compactSessionMutation, webClientId } from "./compact-session";

const ref = { workspaceId: "w1", sessionId: "s1" };

afterEach(() => vi.unstubAllGlobals());

describe("compactSessionMutation", () => {
  it("when run, then it posts {} with the tab's web client id and re-reads usage, turns and the session", async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(
          JSON.stringify({
            session_id: "s1",
            prompt_id: "p1",
            command: "compact",
            status: "accepted",
          }),
          { status: 202 },
        ),
    );
    vi.stubGlobal("fetch", fetchMock);
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, "invalidateQueries");
    const observer = new MutationObserver(client, compactSessionMutation(client, ref));
    const accepted = await observer.mutate();
    expect(accepted.command).toBe("compact");

    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/workspaces/w1/sessions/s1/compact");
    expect(init.method).toBe("POST");
    expect(init.body).toBe("{}");
    const headers = init.headers as Record<string, string>;
    expect(headers["X-Compozy-Client-ID"]).toMatch(/^web-.+/);
    expect(headers["X-Compozy-Client-ID"]).toBe(webClientId());
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([
      ["sessions", "usage", "s1"],
      ["sessions", "usage-turns", "s1"],
      ["sessions", "detail", "s1"],
    ]);
  });

  it("when refused, then the daemon's code and text reach the caller and the caches are still re-read", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({ error: "session: prompt already in progress", code: "session_busy" }),
            { status: 409 },
          ),
      ),
    );
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, "invalidateQueries");
    const observer = new MutationObserver(client, compactSessionMutation(client, ref));
    await expect(observer.mutate()).rejects.toMatchObject({
      code: "session_busy",
      message: "session: prompt already in progress",
      status: 409,
    });
    expect(invalidate).toHaveBeenCalledTimes(3);
  });
});
