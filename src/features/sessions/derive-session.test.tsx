// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http, type RequestHandler } from "msw";
import { describe, expect, it, vi } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { daemon, mockDaemon, pathOf } from "../../testing/msw";
import { DeriveSession } from "./derive-session";
import { previewSummary } from "./derive-session-view";

const BASE = "/api/workspaces/w1/sessions/s1";
const AT = "2026-01-01T00:00:00Z";

const json = (body: object, status = 200) => HttpResponse.json(body, { status });

const created = {
  id: "s2",
  workspace_id: "w1",
  agent_name: "other",
  state: "starting",
  available_commands: [],
  created_at: AT,
  updated_at: AT,
};

const source = {
  id: "s1",
  workspace_id: "w1",
  agent_name: "demo",
  name: "Billing",
  state: "active",
  available_commands: [],
  created_at: AT,
  updated_at: AT,
};

const agents = {
  agents: [
    { name: "demo", default: true, preset: "demo" },
    { name: "other", default: false },
  ],
};

/** Every panel reads its source session and the configured agents. */
const requests = mockDaemon(
  http.get(BASE, () => json({ session: source })),
  http.get("/api/agents", () => json(agents)),
);
const posts = () => requests.filter((request) => request.method === "POST");

function renderPanel(...handlers: RequestHandler[]) {
  daemon.use(...handlers);
  const location = memoryLocation({ path: "/w/w1/s/s1", record: true });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Router hook={location.hook}>
        <DeriveSession session={{ workspaceId: "w1", sessionId: "s1" }} />
      </Router>
    </QueryClientProvider>,
  );
  return { location };
}

describe("Continue and Fork", () => {
  it("when Fork is chosen, then the preview is shown first, and starting it posts the agent and opens the new session", async () => {
    const preview = { message_count: 12, replay_bytes: 4_300, truncated: true, omitted_count: 30 };
    const { location } = renderPanel(
      http.get(`${BASE}/derive/preview`, () => json(preview)),
      http.post(`${BASE}/fork`, () => json({ session: created }, 201)),
    );
    await userEvent.click(screen.getByRole("button", { name: "Fork…" }));
    const panel = await screen.findByRole("group", { name: "Fork this session" });
    expect(
      await within(panel).findByText(
        "The new session's agent is sent 12 messages of this conversation (4.2 KB) with its first prompt. 30 earlier messages are left out to fit the replay budget; this session keeps them.",
      ),
    ).toBeInTheDocument();
    expect(posts()).toHaveLength(0);

    // The agent is one of the configured ones, this session's preselected; the name follows
    // the source's.
    const agent = within(panel).getByRole("combobox", { name: "Agent" });
    await vi.waitFor(() => expect(agent).toHaveValue("demo"));
    expect(
      within(agent)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["demo · Demo agent (scripted, no key) (this session's)", "other"]);
    expect(within(panel).getByRole("textbox", { name: "Name" })).toHaveValue("Billing (fork)");
    await userEvent.selectOptions(agent, "other");
    await userEvent.click(within(panel).getByRole("button", { name: "Start fork" }));
    await vi.waitFor(() => expect(location.history.at(-1)).toBe("/w/w1/s/s2"));
    expect(posts().map(pathOf)).toEqual([`${BASE}/fork`]);
    expect(await posts()[0]?.json()).toEqual({
      agent_name: "other",
      name: "Billing (fork)",
    });
  });

  it("when the panel opens, then it takes focus, and Escape closes it and returns focus to its button", async () => {
    const user = userEvent.setup();
    const outside = vi.fn();
    window.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !event.defaultPrevented) outside();
    });
    renderPanel(
      http.get(`${BASE}/derive/preview`, () =>
        json({ message_count: 2, replay_bytes: 900, truncated: false, omitted_count: 0 }),
      ),
    );
    const opener = screen.getByRole("button", { name: "Continue…" });
    await user.click(opener);
    const panel = await screen.findByRole("group", { name: "Continue this session" });
    expect(panel).toHaveFocus();
    expect(within(panel).getByRole("textbox", { name: "Name" })).toHaveValue("Billing (continued)");
    await user.tab();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("group", { name: "Continue this session" })).toBeNull();
    expect(opener).toHaveFocus();
    expect(opener).toHaveAttribute("aria-expanded", "false");
    // Escape stopped here: it does not also reach the page (where it stops a turn).
    expect(outside).not.toHaveBeenCalled();
  });

  it("when the session was continued, then only Fork is offered", async () => {
    renderPanel(
      http.get(BASE, () =>
        json({
          session: {
            ...source,
            derivation: {
              derived: [{ session_id: "s2", kind: "continue", created_at: AT }],
              continued_in: "s2",
            },
          },
        }),
      ),
    );
    expect(await screen.findByRole("button", { name: "Fork…" })).toBeVisible();
    await vi.waitFor(() => expect(screen.queryByRole("button", { name: "Continue…" })).toBeNull());
  });

  it("when the daemon refuses the continue, then its words are shown and nothing navigates", async () => {
    const { location } = renderPanel(
      http.get(`${BASE}/derive/preview`, () =>
        json({ message_count: 2, replay_bytes: 900, truncated: false, omitted_count: 0 }),
      ),
      http.post(`${BASE}/continue`, () =>
        json({ error: "session: prompt already in progress", code: "session_busy" }, 409),
      ),
    );
    await userEvent.click(screen.getByRole("button", { name: "Continue…" }));
    const panel = await screen.findByRole("group", { name: "Continue this session" });
    await within(panel).findByText(/is sent 2 messages of this conversation \(900 bytes\)/);
    await userEvent.click(within(panel).getByRole("button", { name: "Start continued session" }));
    expect(await within(panel).findByRole("alert")).toHaveTextContent(
      "session: prompt already in progress",
    );
    expect(location.history).toEqual(["/w/w1/s/s1"]);
  });

  it("when the preview cannot be read, then the panel says why and cannot start", async () => {
    renderPanel(
      http.get(`${BASE}/derive/preview`, () =>
        json({ error: "not found", code: "not_found" }, 404),
      ),
    );
    await userEvent.click(screen.getByRole("button", { name: "Continue…" }));
    const panel = await screen.findByRole("group", { name: "Continue this session" });
    expect(await within(panel).findByRole("alert")).toBeInTheDocument();
    expect(within(panel).getByRole("button", { name: "Start continued session" })).toBeDisabled();
  });
});

describe("previewSummary", () => {
  it("when nothing is stored, or everything fits, then it says so plainly", () => {
    expect(
      previewSummary({ message_count: 0, replay_bytes: 600, truncated: false, omitted_count: 0 }),
    ).toBe("This conversation has no messages yet: the new session starts empty.");
    expect(
      previewSummary({ message_count: 1, replay_bytes: 1_500, truncated: true, omitted_count: 0 }),
    ).toBe(
      "The new session's agent is sent 1 message of this conversation (1.5 KB) with its first prompt. Some long messages are shortened to fit the budget.",
    );
  });
});
