// Test fixtures for the context rail: a real QueryClient seeded the way the daemon would
// answer. What the daemon answers past the seed comes from MSW handlers (testing/msw.ts).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { sessionQueries } from "@/api/session-queries";
import { type CompactionMarkerView, type UsageTurnsView, usageQueries } from "@/api/usage-queries";
import type { Session } from "@/contract/session";
import type { ContextReading, Turn } from "@/contract/usage";
import { ContextRail } from "@/features/context/context-rail";

export const REF = { workspaceId: "w1", sessionId: "s1" };
const AT = "2026-11-30T08:00:00.000Z";
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

/**
 * The daemon behind the rail when a test says nothing else: the session above, a reported
 * reading, no turns and an empty transcript (the rail reads it for each compaction's state).
 */
export const railDaemon = [
  http.get(BASE, () => HttpResponse.json({ session: makeSession() })),
  http.get(`${BASE}/usage`, () =>
    HttpResponse.json({ usage: { context: REPORTED, turn_count: 1 } }),
  ),
  http.get(`${BASE}/usage/turns`, () => HttpResponse.json({ turns: [], compactions: [] })),
  http.get(`${BASE}/transcript`, () =>
    HttpResponse.json({
      entries: [],
      epoch: 1,
      generation: 0,
      max_sequence: 0,
      has_older: false,
      limit: 200,
    }),
  ),
];

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
