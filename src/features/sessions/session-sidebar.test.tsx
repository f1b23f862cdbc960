// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import type { Session } from "../../contract/session";
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

const sessions = [
  session("s-old", { name: "Old work", state: "stopped", updated_at: "2026-01-01T00:00:00Z" }),
  session("s-new", {
    updated_at: "2026-01-03T00:00:00Z",
    activity: { turn_id: "t1", kind: "prompt" },
  }),
  session("s-mid", {
    name: "Refactor",
    updated_at: "2026-01-02T00:00:00Z",
    activity: { turn_id: "t2", kind: "compact" },
  }),
];

let fetchMock: ReturnType<typeof vi.fn>;

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

beforeEach(() => {
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url.startsWith("/api/sessions")) {
      return json({ sessions, page: { has_more: false, limit: 200, total: 3 } });
    }
    if (url === "/api/workspaces") {
      const at = "2026-01-01T00:00:00Z";
      return json({
        workspaces: [{ id: "w1", name: "main", root_dir: "/w", created_at: at, updated_at: at }],
      });
    }
    if (url === "/api/workspaces/w1/sessions" && init?.method === "POST") {
      return json({ session: session("s-created") }, 201);
    }
    return json({ error: "nope", code: "not_found" }, 404);
  });
  vi.stubGlobal("fetch", fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function renderSidebar(activeSessionId?: string) {
  const location = memoryLocation({ path: "/", record: true });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
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
  it("lists sessions newest activity first with name or id, agent, state and activity", async () => {
    renderSidebar("s-mid");
    const nav = screen.getByRole("navigation", { name: "Sessions" });
    const links = await within(nav).findAllByRole("link");
    expect(links.map((link) => link.textContent)).toEqual([
      "s-newactivedemo-agentworking…",
      "Refactoractivedemo-agentcompacting…",
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

  it("creates a session in the first workspace and opens it", async () => {
    const user = userEvent.setup();
    const location = renderSidebar();
    const button = screen.getByRole("button", { name: "New session" });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    await waitFor(() => expect(location.history.at(-1)).toBe("/w/w1/s/s-created"));
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
