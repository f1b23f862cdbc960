// @vitest-environment jsdom
import { MutationObserver, QueryClient } from "@tanstack/react-query";
import { HttpResponse, http } from "msw";
import { describe, expect, it, vi } from "vitest";
import { daemon, mockDaemon, pathOf } from "../testing/msw";
import { compactSessionMutation, webClientId } from "./compact-session";

const ref = { workspaceId: "w1", sessionId: "s1" };
const COMPACT = "/api/workspaces/w1/sessions/s1/compact";

const requests = mockDaemon();

describe("compactSessionMutation", () => {
  it("when run, then it posts {} with the tab's web client id and re-reads usage, turns and the session", async () => {
    daemon.use(
      http.post(COMPACT, () =>
        HttpResponse.json(
          { session_id: "s1", prompt_id: "p1", command: "compact", status: "accepted" },
          { status: 202 },
        ),
      ),
    );
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, "invalidateQueries");
    const observer = new MutationObserver(client, compactSessionMutation(client, ref));
    const accepted = await observer.mutate();
    expect(accepted.command).toBe("compact");

    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(pathOf(request!)).toBe(COMPACT);
    expect(request?.method).toBe("POST");
    expect(await request?.text()).toBe("{}");
    expect(request?.headers.get("X-Compozy-Client-ID")).toMatch(/^web-.+/);
    expect(request?.headers.get("X-Compozy-Client-ID")).toBe(webClientId());
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([
      ["sessions", "usage", "s1"],
      ["sessions", "usage-turns", "s1"],
      ["sessions", "detail", "s1"],
    ]);
  });

  it("when refused, then the daemon's code and text reach the caller and the caches are still re-read", async () => {
    daemon.use(
      http.post(COMPACT, () =>
        HttpResponse.json(
          { error: "session: prompt already in progress", code: "session_busy" },
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
