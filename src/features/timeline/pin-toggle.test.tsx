// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { beforeEach, describe, expect, it } from "vitest";
import { pinQueries } from "../../api/pin-queries";
import type { Entry } from "../../contract/transcript";
import { mockDaemon, requestsTo } from "../../testing/msw";
import { EntryRow } from "./entry-row";
import { TimelineSession } from "./timeline-session";

const ref = { workspaceId: "w1", sessionId: "s1" };
const PINS = "/api/workspaces/w1/sessions/s1/pins";
let pins: { status: number; body: unknown };
let putStatus: number;
const at = "2026-11-30T08:00:00.000Z";

/** The pins routes over `pins`: PUT pins (or is refused with `putStatus`), DELETE unpins. */
const requests = mockDaemon(
  http.get(PINS, () => HttpResponse.json(pins.body as object, { status: pins.status })),
  http.put(`${PINS}/:id`, ({ params }) => {
    const id = String(params.id);
    if (putStatus !== 200)
      return HttpResponse.json(
        { error: "only a message of the person can be pinned", code: "invalid_request" },
        { status: putStatus },
      );
    pins = { status: 200, body: { pins: [{ entry_id: id, pinned_at: at }] } };
    return HttpResponse.json({ pin: { entry_id: id, pinned_at: at } });
  }),
  http.delete(`${PINS}/:id`, () => {
    pins = { status: 200, body: { pins: [] } };
    return new HttpResponse(null, { status: 204 });
  }),
);

beforeEach(() => {
  pins = { status: 200, body: { pins: [] } };
  putStatus = 200;
});

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

function renderEntry(...entries: Entry[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={client}>
      <TimelineSession.Provider value={ref}>
        {entries.map((entry) => (
          <EntryRow key={entry.message.id} entry={entry} markerFor={() => undefined} />
        ))}
      </TimelineSession.Provider>
    </QueryClientProvider>,
  );
  return { client, ...view };
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
    await waitFor(() => expect(requestsTo(requests, `${PINS}/u%201%2Fx`, "PUT")).toHaveLength(1));
    await user.keyboard(" ");
    expect(toggle).toHaveAttribute("aria-pressed", "false");
    await waitFor(() =>
      expect(requestsTo(requests, `${PINS}/u%201%2Fx`, "DELETE")).toHaveLength(1),
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
    const { client, unmount } = renderEntry(userEntry("u1"));
    // The 404 has been read (the list is null) before the toggle's absence means anything.
    await waitFor(() => expect(client.getQueryState(pinQueries.key("s1"))?.status).toBe("success"));
    expect(client.getQueryData(pinQueries.key("s1"))).toBeNull();
    expect(requestsTo(requests, PINS, "GET")).toHaveLength(1);
    expect(screen.queryByRole("button", { name: "Keep this" })).toBeNull();
    unmount();
    pins = { status: 200, body: { pins: [] } };
    // Beside a message of the person's: once its toggle shows, the pins have been read for
    // all three rows, and neither of the other two has one.
    renderEntry(
      userEntry("u2", { maintenance: true }),
      { ...userEntry("a1"), message: { ...userEntry("a1").message, role: "assistant" } },
      userEntry("u3"),
    );
    expect(await screen.findAllByRole("button", { name: "Keep this" })).toHaveLength(1);
  });
});
