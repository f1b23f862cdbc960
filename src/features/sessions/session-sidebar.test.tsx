// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, renderHook, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { sessionQueries } from "../../api/session-queries";
import { useStreamStatusActions } from "../../api/stream-status-store";
import { transcriptQueries } from "../../api/transcript-queries";
import type { Session } from "../../contract/session";
import { daemon, mockDaemon, requestsTo } from "../../testing/msw";
import { SessionSidebar } from "./session-sidebar";

function session(id: string, overrides: Partial<Session> = {}): Session {
  return {
    id,
    workspace_id: "w1",
    agent_name: "demo-agent",
    state: "active",
    available_commands: [],
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
    ...overrides,
  };
}

// Created in the order old, mid, new; the newest activity is the OLDEST session's, as when
// work resumes in it: the list keeps its order (newest created first), activity shows in
// the badges.
const sessions = [
  session("s-old", {
    name: "Old work",
    state: "stopped",
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-09T00:00:00Z",
  }),
  session("s-new", {
    created_at: "2026-01-03T00:00:00Z",
    updated_at: "2026-01-03T00:00:00Z",
    activity: { turn_id: "t1", turn_source: "user" },
  }),
  session("s-mid", {
    name: "Refactor",
    created_at: "2026-01-02T00:00:00Z",
    updated_at: "2026-01-05T00:00:00Z",
    activity: { turn_id: "t2", turn_source: "user" },
  }),
];

const at = "2026-01-01T00:00:00Z";
const requests = mockDaemon(
  http.get("/api/sessions", () =>
    HttpResponse.json({ sessions, page: { has_more: false, limit: 100, total: 3 } }),
  ),
  http.get("/api/workspaces", () =>
    HttpResponse.json({
      workspaces: [{ id: "w1", name: "main", root_dir: "/w", created_at: at, updated_at: at }],
    }),
  ),
  http.get("/api/agents", () =>
    HttpResponse.json({
      agents: [
        { name: "claude", default: true, preset: "claude" },
        { name: "codex", default: false, preset: "codex" },
      ],
    }),
  ),
  http.post("/api/sessions", () =>
    HttpResponse.json({ session: session("s-created") }, { status: 201 }),
  ),
);

function renderSidebar(activeSessionId?: string, seed?: (client: QueryClient) => void) {
  const location = memoryLocation({ path: "/", record: true });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  seed?.(client);
  render(
    <QueryClientProvider client={client}>
      <Router hook={location.hook}>
        <SessionSidebar {...(activeSessionId ? { activeSessionId } : {})} />
      </Router>
    </QueryClientProvider>,
  );
  return location;
}

describe("SessionSidebar", () => {
  it("lists sessions newest created first (not by activity) with name or id, agent, state and activity", async () => {
    renderSidebar("s-mid");
    const nav = screen.getByRole("navigation", { name: "Sessions" });
    const links = await within(nav).findAllByRole("link");
    expect(links.map((link) => link.textContent)).toEqual([
      "s-newworking…demo-agent",
      "Refactorworking…demo-agent",
      "Old workstoppeddemo-agent",
    ]);
    expect(within(nav).getByRole("link", { name: /Refactor/ })).toHaveAttribute(
      "aria-current",
      "page",
    );
    expect(within(nav).getByRole("link", { name: /Old work/ })).toHaveAttribute(
      "href",
      "/w/w1/s/s-old",
    );
  });

  it("when the open session's detail is newer than the list, then its link says what the header says", async () => {
    renderSidebar("s-mid", (client) =>
      client.setQueryData(
        sessionQueries.detail({ workspaceId: "w1", sessionId: "s-mid" }).queryKey,
        { session: session("s-mid", { name: "Refactor" }) },
      ),
    );
    const nav = screen.getByRole("navigation", { name: "Sessions" });
    // The list still has its turn running; the stream-fed detail says the turn ended.
    expect((await within(nav).findByRole("link", { name: /Refactor/ })).textContent).toBe(
      "Refactorreadydemo-agent",
    );
    expect(within(nav).getByRole("link", { name: /s-new/ }).textContent).toBe(
      "s-newworking…demo-agent",
    );
  });

  it("when the open session's stream is reconnecting, then its link says Reconnecting…, as the header does", async () => {
    const { result } = renderHook(() => useStreamStatusActions());
    act(() => result.current.streamChanged("s-mid", "reconnecting"));
    renderSidebar("s-mid");
    const nav = screen.getByRole("navigation", { name: "Sessions" });
    expect((await within(nav).findByRole("link", { name: /Refactor/ })).textContent).toBe(
      "RefactorReconnecting…demo-agent",
    );
    act(() => result.current.streamClosed("s-mid"));
    await waitFor(() =>
      expect(within(nav).getByRole("link", { name: /Refactor/ }).textContent).toBe(
        "Refactorworking…demo-agent",
      ),
    );
  });

  it("when the open session's transcript shows a compaction running, then its link says compacting…", async () => {
    renderSidebar("s-mid", (client) =>
      client.setQueryData(transcriptQueries.key("s-mid"), {
        entries: [
          {
            start_sequence: 1,
            sequence: 1,
            message: {
              id: "m1",
              role: "assistant",
              parts: [
                {
                  type: "data-compozy-compaction",
                  id: "c1",
                  data: {
                    kind: "compaction",
                    compaction_id: "c1",
                    status: "in_progress",
                    started_at: "2026-01-01T00:00:00Z",
                  },
                },
              ],
            },
          },
        ],
      }),
    );
    const nav = screen.getByRole("navigation", { name: "Sessions" });
    expect((await within(nav).findByRole("link", { name: /Refactor/ })).textContent).toBe(
      "Refactorcompacting…demo-agent",
    );
  });

  it("when the list can no longer reach the daemon, then no row claims its last state as current", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const location = memoryLocation({ path: "/" });
    render(
      <QueryClientProvider client={client}>
        <Router hook={location.hook}>
          <SessionSidebar />
        </Router>
      </QueryClientProvider>,
    );
    const nav = screen.getByRole("navigation", { name: "Sessions" });
    await within(nav).findByRole("link", { name: /Old work/ });
    daemon.use(http.get("/api/sessions", () => HttpResponse.error()));
    await act(() => client.refetchQueries({ queryKey: sessionQueries.list().queryKey }));
    await waitFor(() =>
      expect(
        within(nav)
          .getAllByRole("link")
          .map((link) => link.textContent),
      ).toEqual([
        "s-newReconnecting…demo-agent",
        "RefactorReconnecting…demo-agent",
        "Old workReconnecting…demo-agent",
      ]),
    );
  });

  it("when New session is used, then the dialog's agent and name create the session in the first workspace, which opens", async () => {
    const user = userEvent.setup();
    const location = renderSidebar();
    const button = screen.getByRole("button", { name: "New session" });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    const dialog = await screen.findByRole("dialog", { name: "New session" });
    await user.click(await within(dialog).findByRole("radio", { name: "codex" }));
    await user.type(within(dialog).getByRole("textbox", { name: "Name (optional)" }), "Fix CI");
    await user.click(within(dialog).getByRole("button", { name: "Create session" }));
    await waitFor(() => expect(location.history.at(-1)).toBe("/w/w1/s/s-created"));
    const creates = requestsTo(requests, "/api/sessions", "POST");
    expect(creates).toHaveLength(1);
    expect(await creates[0]?.json()).toEqual({
      workspace: "w1",
      agent_name: "codex",
      name: "Fix CI",
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("when a session has a permission waiting, then its link says it needs approval", async () => {
    sessions.push(
      session("s-ask", {
        name: "Asking",
        updated_at: "2026-01-04T00:00:00Z",
        pending_interactions: [
          {
            interaction_id: "perm_1",
            kind: "permission",
            provider_request_id: "perm_1",
            status: "pending",
            created_at: "2026-01-04T00:00:00Z",
          },
        ],
      }),
    );
    renderSidebar();
    expect(await screen.findByRole("link", { name: /Asking.*needs approval/ })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /Old work/ })).not.toHaveTextContent("needs approval");
    sessions.pop();
  });

  it("when the daemon has more than one page, then it asks for at most 100 and Show more follows the cursor", async () => {
    const user = userEvent.setup();
    const first = Array.from({ length: 100 }, (_, index) =>
      session(`s-${String(index).padStart(3, "0")}`, {
        updated_at: new Date(Date.UTC(2026, 0, 2, 0, 0, 100 - index)).toISOString(),
      }),
    );
    daemon.use(
      http.get("/api/sessions", ({ request }) =>
        new URL(request.url).searchParams.get("cursor") === "page-2"
          ? HttpResponse.json({
              sessions: [
                session("s-last", { name: "The 101st", updated_at: "2026-01-01T00:00:00Z" }),
              ],
              page: { has_more: false, limit: 100, total: 101 },
            })
          : HttpResponse.json({
              sessions: first,
              page: { has_more: true, limit: 100, next_cursor: "page-2", total: 101 },
            }),
      ),
      http.get("/api/workspaces", () => HttpResponse.json({ workspaces: [] })),
    );
    renderSidebar();
    const nav = screen.getByRole("navigation", { name: "Sessions" });
    await waitFor(() => expect(within(nav).getAllByRole("link")).toHaveLength(100));
    const listCalls = requestsTo(requests, "/api/sessions", "GET");
    expect(listCalls.length).toBeGreaterThan(0);
    for (const call of listCalls) {
      expect(Number(new URL(call.url).searchParams.get("limit"))).toBeLessThanOrEqual(100);
    }
    await user.click(within(nav).getByRole("button", { name: "Show more sessions" }));
    expect(await within(nav).findByRole("link", { name: /The 101st/ })).toBeInTheDocument();
    expect(within(nav).getAllByRole("link")).toHaveLength(101);
    expect(within(nav).queryByRole("button", { name: "Show more sessions" })).toBeNull();
  });

  it("collapses the list behind a Sessions toggle on narrow screens", async () => {
    const user = userEvent.setup();
    renderSidebar();
    const toggle = screen.getByRole("button", { name: /Sessions/ });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    const list = document.getElementById(toggle.getAttribute("aria-controls") ?? "");
    expect(list).toHaveClass("hidden");
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(list).not.toHaveClass("hidden");
  });
});
