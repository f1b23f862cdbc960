// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Entry } from "../../contract/transcript";
import { EntryRow } from "./entry-row";
import { TimelineSession } from "./timeline-session";

const ref = { workspaceId: "w1", sessionId: "s1" };
const PINS = "/api/workspaces/w1/sessions/s1/pins";
let pins: { status: number; body: unknown };
let putStatus: number;
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  pins = { status: 200, body: { pins: [] } };
  putStatus = 200;
  fetchMock = vi.fn(async (input: string, init?: RequestInit) => {
    const path = String(input);
    const reply = (status: number, body: unknown) =>
      new Response(status === 204 ? null : JSON.stringify(body), {
        status,
        headers: { "Content-Type": "application/json" },
      });
    if (path === PINS) return reply(pins.status, pins.body);
    const id = decodeURIComponent(path.slice(PINS.length + 1));
    const at = "2026-11-30T08:00:00.000Z";
    if (path.startsWith(`${PINS}/`) && init?.method === "PUT") {
      if (putStatus === 200)
        pins = { status: 200, body: { pins: [{ entry_id: id, pinned_at: at }] } };
      return putStatus === 200
        ? reply(200, { pin: { entry_id: id, pinned_at: at } })
        : reply(putStatus, {
            error: "only a message of the person can be pinned",
            code: "invalid_request",
          });
    }
    if (path.startsWith(`${PINS}/`) && init?.method === "DELETE") {
      pins = { status: 200, body: { pins: [] } };
      return reply(204, null);
    }
    return reply(404, { error: "no such endpoint", code: "not_found" });
  });
  vi.stubGlobal("fetch", fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const userEntry = (id: string, metadata?: unknown): Entry => ({
  start_sequence: 1,
  sequence: 1,
  message: {
    id,
    role: "user",
    ...(metadata === undefined ? {} : { metadata }),
    parts: [{ type: "text", text: "Never edit src/gen/." }],
  },
});

function renderEntry(entry: Entry) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <TimelineSession.Provider value={ref}>
        <EntryRow entry={entry} markerFor={() => undefined} />
      </TimelineSession.Provider>
    </QueryClientProvider>,
  );
}

describe("Keep this", () => {
  it("when the person presses Keep this (by keyboard), then it is pressed and Pinned shows at once, PUT …/pins/{id} is sent, and pressing again unpins with DELETE", async () => {
    const user = userEvent.setup();
    renderEntry(userEntry("u 1/x"));
    const toggle = await screen.findByRole("button", { name: "Keep this" });
    expect(toggle).toHaveAttribute("aria-pressed", "false");
    toggle.focus();
    await user.keyboard("{Enter}");
    expect(toggle).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByText("Pinned")).toBeInTheDocument();
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        `${PINS}/u%201%2Fx`,
        expect.objectContaining({ method: "PUT" }),
      ),
    );
    await user.keyboard(" ");
    expect(toggle).toHaveAttribute("aria-pressed", "false");
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        `${PINS}/u%201%2Fx`,
        expect.objectContaining({ method: "DELETE" }),
      ),
    );
  });

  it("when the message is already pinned, then it loads pressed", async () => {
    pins = {
      status: 200,
      body: { pins: [{ entry_id: "u1", pinned_at: "2026-11-30T08:00:00.000Z" }] },
    };
    renderEntry(userEntry("u1"));
    expect(await screen.findByRole("button", { name: "Keep this" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
  });

  it("when the daemon refuses the pin, then the toggle goes back and says why", async () => {
    const user = userEvent.setup();
    putStatus = 400;
    renderEntry(userEntry("u1"));
    await user.click(await screen.findByRole("button", { name: "Keep this" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Couldn't pin: only a message of the person can be pinned",
    );
    expect(screen.getByRole("button", { name: "Keep this" })).toHaveAttribute(
      "aria-pressed",
      "false",
    );
  });

  it("when the daemon has no pins (CompozyOS answers 404), or the message is Compact now's or the agent's, then there is no toggle", async () => {
    pins = { status: 404, body: { error: "not found", code: "not_found" } };
    renderEntry(userEntry("u1"));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith(PINS, expect.anything()));
    expect(screen.queryByRole("button", { name: "Keep this" })).toBeNull();
    pins = { status: 200, body: { pins: [] } };
    renderEntry(userEntry("u2", { maintenance: true }));
    renderEntry({ ...userEntry("a1"), message: { ...userEntry("a1").message, role: "assistant" } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole("button", { name: "Keep this" })).toBeNull();
  });
});
