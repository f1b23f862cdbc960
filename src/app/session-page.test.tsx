// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionPage } from "./session-page";

const REF = { workspaceId: "w1", sessionId: "gone" };

class FakeEventSource {
  static opened: string[] = [];
  onopen = null;
  onerror = null;
  constructor(url: string) {
    FakeEventSource.opened.push(url);
  }
  addEventListener() {}
  close() {}
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeEventSource.opened = [];
});

describe("the session page", () => {
  it("when the daemon does not know the session, then it says so once and stops streaming", async () => {
    vi.stubGlobal("EventSource", FakeEventSource);
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: "session not found", code: "not_found" }), {
            status: 404,
            headers: { "Content-Type": "application/json" },
          }),
      ),
    );
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
  });
});
