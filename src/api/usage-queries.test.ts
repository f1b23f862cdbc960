// @vitest-environment jsdom
import { QueryClient } from "@tanstack/react-query";
import { HttpResponse, http } from "msw";
import { describe, expect, it, vi } from "vitest";
import { daemon, mockDaemon, pathOf } from "../testing/msw";
import { usageQueries } from "./usage-queries";

const ref = { workspaceId: "ws 1", sessionId: "s1" };
const USAGE = "/api/workspaces/ws%201/sessions/s1/usage";

const requests = mockDaemon();

describe("usageQueries", () => {
  it("keys usage and turns under the session, as the stream hook invalidates them", () => {
    expect(usageQueries.usage(ref).queryKey).toEqual(["sessions", "usage", "s1"]);
    expect(usageQueries.turns(ref).queryKey).toEqual(["sessions", "usage-turns", "s1"]);
    expect(usageQueries.usage(ref).staleTime).toBe(Number.POSITIVE_INFINITY);
    expect(usageQueries.turns(ref).staleTime).toBe(Number.POSITIVE_INFINITY);
  });

  it("when usage is read, then it is parsed and the envelope is unwrapped by select", async () => {
    daemon.use(
      http.get(USAGE, () =>
        HttpResponse.json({ usage: { context: { state: "unknown" }, turn_count: 0 } }),
      ),
    );
    const client = new QueryClient();
    const data = await client.fetchQuery(usageQueries.usage(ref));
    expect(data.usage.context?.state).toBe("unknown");
    expect(usageQueries.usage(ref).select?.(data)).toEqual(data.usage);
    expect(requests.map(pathOf)).toEqual([USAGE]);
  });

  it("when a usage read is cancelled, then its request is aborted (the fetch carries the query's signal)", async () => {
    daemon.use(http.get(USAGE, () => new Promise<never>(() => {})));
    const client = new QueryClient();
    void client.fetchQuery(usageQueries.usage(ref)).catch(() => undefined);
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    await client.cancelQueries({ queryKey: usageQueries.usage(ref).queryKey });
    await vi.waitFor(() => expect(requests[0]?.signal.aborted).toBe(true));
  });

  it("when the usage payload is malformed, then the query fails", async () => {
    daemon.use(http.get(USAGE, () => HttpResponse.json({ usage: { context: { state: "full" } } })));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await expect(client.fetchQuery(usageQueries.usage(ref))).rejects.toMatchObject({
      code: "invalid_response",
    });
  });

  it("when turns are read, then the unwrapped turns and markers are parsed", async () => {
    daemon.use(
      http.get(`${USAGE}/turns`, () =>
        HttpResponse.json({ turns: [{ turn_id: "t1", sequence: 3 }], compactions: [] }),
      ),
    );
    const client = new QueryClient();
    const data = await client.fetchQuery(usageQueries.turns(ref));
    expect(data?.turns).toHaveLength(1);
    expect(requests.map(pathOf)).toEqual([`${USAGE}/turns`]);
  });
});

describe("withContextAfter", () => {
  it("when a CompozyOS daemon sends no after figure, then every marker's derived one is the contract's contextAfterOf, in any order", async () => {
    const { contextAfterOf } = await import("../contract/usage");
    const { withContextAfter } = await import("./usage-queries");
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    // Few distinct seconds: report-time ties are common, so the sequence tie-break is tried.
    const stamp = () =>
      new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 40) * 1000).toISOString();
    for (let round = 0; round < 50; round += 1) {
      const turns = Array.from({ length: 1 + Math.floor(random() * 60) }, (_, index) => ({
        turn_id: `t${index}`,
        sequence: index * 10 + 1,
        ...(random() < 0.3
          ? {}
          : {
              usage: {
                context_used: Math.floor(random() * 1e5),
                context_size: 200_000,
                timestamp: stamp(),
              },
            }),
      }));
      const compactions = Array.from({ length: Math.floor(random() * 8) }, (_, index) => {
        const turn = turns[Math.floor(random() * turns.length)] as (typeof turns)[number];
        return {
          turn_id: turn.turn_id,
          sequence: turn.sequence + 1 + Math.floor(random() * 8),
          at: stamp(),
          compaction_id: `c${index}`,
          trigger: "agent" as const,
          status: random() < 0.2 ? "in_progress" : "completed",
        };
      });
      const shuffled = { turns: [...turns].reverse(), compactions: [...compactions].reverse() };
      const view = withContextAfter(shuffled);
      for (const marker of view.compactions) {
        const { context_after, ...plain } = marker;
        expect(context_after).toEqual(contextAfterOf(plain, shuffled));
      }
    }
  });

  it("when the daemon sends its after figures, then they are used as sent, and null means none", async () => {
    const { withContextAfter } = await import("./usage-queries");
    const marker = {
      turn_id: "t1",
      sequence: 5,
      at: "2026-01-01T00:00:01Z",
      compaction_id: "c1",
      trigger: "requested" as const,
      status: "completed",
    };
    // A later turn's reading the turns-only rule would pick: the daemon's figure wins.
    const turns = [
      {
        turn_id: "t2",
        sequence: 9,
        usage: { context_used: 28_700, timestamp: "2026-01-01T00:00:05Z" },
      },
    ];
    const sent = withContextAfter({
      turns,
      compactions: [
        { ...marker, context_after: { used: 28_000, size: 200_000, sequence: 7, turn_id: "t1" } },
      ],
    });
    expect(sent.compactions[0]?.context_after).toEqual({
      used: 28_000,
      size: 200_000,
      sequence: 7,
      turn_id: "t1",
    });
    const none = withContextAfter({ turns, compactions: [{ ...marker, context_after: null }] });
    expect(none.compactions[0]).not.toHaveProperty("context_after");
  });
});
