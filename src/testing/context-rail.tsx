// Test fixtures for the context rail: a real QueryClient seeded the way the daemon would
// answer, and a fetch stub that routes by method and path.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { vi } from "vitest";
import { sessionQueries } from "../api/session-queries";
import { type CompactionMarkerView, type UsageTurnsView, usageQueries } from "../api/usage-queries";
import type { Session } from "../contract/session";
import type { ContextReading, Turn } from "../contract/usage";
import { ContextRail } from "../features/context/context-rail";

export const REF = { workspaceId: "w1", sessionId: "s1" };
export const AT = "2026-11-30T08:00:00.000Z";
export const BASE = "/api/workspaces/w1/sessions/s1";

export function makeSession(extra: Partial<Session> = {}): Session {
  return {
    id: "s1",
    workspace_id: "w1",
    agent_name: "demo",
    state: "active",
    available_commands: [{ name: "compact", description: "Compact the conversation" }],
    created_at: AT,
    updated_at: AT,
    ...extra,
  };
}

export const REPORTED: ContextReading = {
  state: "reported",
  used: 89_700,
  size: 256_000,
  ratio: 89_700 / 256_000,
  size_source: "agent",
  sequence: 20,
};

export function makeTurn(sequence: number, usage: Partial<NonNullable<Turn["usage"]>> = {}): Turn {
  return { turn_id: `t${sequence}`, sequence, usage: { timestamp: AT, ...usage } };
}

export function makeMarker(sequence: number, extra: Partial<CompactionMarkerView> = {}) {
  const marker: CompactionMarkerView = {
    turn_id: "",
    sequence,
    at: AT,
    compaction_id: `c${sequence}`,
    trigger: "agent",
    status: "completed",
    ...extra,
  };
  return marker;
}

export type Route = (init: RequestInit) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status });
}

/** Stubs fetch: `"POST /compact"` → handler; unknown routes answer 404 so nothing hangs. */
export function stubFetch(routes: Record<string, Route>) {
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const path = input.replace(BASE, "");
    const route = routes[`${init.method ?? "GET"} ${path}`];
    return route ? route(init) : json({ error: "not found", code: "not_found" }, 404);
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

export function renderRail(seed: {
  session?: Session;
  context?: ContextReading;
  turns?: UsageTurnsView;
}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (seed.session) {
    client.setQueryData(sessionQueries.detail(REF).queryKey, { session: seed.session });
  }
  if (seed.context) {
    client.setQueryData(usageQueries.usage(REF).queryKey, {
      usage: { context: seed.context, turn_count: 1 },
    });
  }
  if (seed.turns) client.setQueryData(usageQueries.turns(REF).queryKey, seed.turns);
  const view = render(
    <QueryClientProvider client={client}>
      <ContextRail session={REF} />
    </QueryClientProvider>,
  );
  return { client, ...view };
}
