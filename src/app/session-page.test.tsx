// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mockDaemon } from "../testing/msw";
import { SessionPage } from "./session-page";

const REF = { workspaceId: "w1", sessionId: "gone" };
const GONE = "/api/workspaces/w1/sessions/gone";
const notFound = () =>
  HttpResponse.json({ error: "session not found", code: "not_found" }, { status: 404 });

// The daemon does not know the session: the session and everything under it answer 404.
mockDaemon(http.get(GONE, notFound), http.all(`${GONE}/*`, notFound));

class FakeEventSource {
  static opened: FakeEventSource[] = [];
  onopen = null;
  onerror = null;
  closed = false;
  constructor() {
    FakeEventSource.opened.push(this);
  }
  addEventListener() {}
  close() {
    this.closed = true;
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeEventSource.opened = [];
});

describe("the session page", () => {
  it("when the daemon does not know the session, then it says so once and stops streaming", async () => {
    vi.stubGlobal("EventSource", FakeEventSource);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <SessionPage session={REF} />
      </QueryClientProvider>,
    );
    expect(
      await screen.findByRole("heading", { name: "Session not found" }, { timeout: 5000 }),
    ).toBeVisible();
    expect(screen.queryByRole("combobox", { name: "Message" })).not.toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.queryByText("Reconnecting…")).not.toBeInTheDocument();
    expect(screen.getAllByRole("heading", { name: "Session not found" })).toHaveLength(1);
    // Stops streaming: whatever stream was opened before the 404 is closed, none stays open.
    await waitFor(() => expect(FakeEventSource.opened.every((source) => source.closed)).toBe(true));
  });
});
