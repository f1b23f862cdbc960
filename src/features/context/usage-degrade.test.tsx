// @vitest-environment jsdom
// An older CompozyOS: usage without a context reading, and no `/usage/turns` or `/compact`
// (its router answers those with a plain-text 404). The rail must say so and carry on:
// never a blank panel, an error with a Retry that cannot help, or a retry loop.
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { BASE, makeSession, REPORTED, railDaemon, renderRail } from "../../testing/context-rail";
import { daemon, mockDaemon, requestsTo } from "../../testing/msw";

const requests = mockDaemon(...railDaemon);

const plain404 = () => new HttpResponse("404 page not found", { status: 404 });
const calls = (suffix: string) => requestsTo(requests, `${BASE}${suffix}`).length;

describe("ContextRail against an older daemon", () => {
  it("when usage has no context reading, then the meter says the daemon reports none", async () => {
    daemon.use(
      http.get(`${BASE}/usage`, () =>
        HttpResponse.json({ usage: { turn_count: 3, input_tokens: 1200, output_tokens: 80 } }),
      ),
      http.get(`${BASE}/usage/turns`, () => HttpResponse.json({ turns: [], compactions: [] })),
    );
    const { client } = renderRail({ session: makeSession() });
    // No figure to expose: a labelled status text, never a role="meter" a browser reads as 0.
    const status = await screen.findByRole("status", { name: "Context window" });
    await waitFor(() => expect(status).toHaveTextContent("No context reading"));
    expect(status).toHaveTextContent("This daemon reports no context usage");
    expect(screen.queryByRole("meter")).toBeNull();
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
    // Nothing is fetching, so no retry is waiting either (a retry delay counts as fetching).
    await waitFor(() => expect(client.isFetching()).toBe(0));
    expect(calls("/usage")).toBe(1);
  });

  it("when /usage/turns is 404, then the turns list, the chart and Compact now are hidden, asked once", async () => {
    daemon.use(
      http.get(`${BASE}/usage`, () =>
        HttpResponse.json({ usage: { context: REPORTED, turn_count: 1 } }),
      ),
      http.get(`${BASE}/usage/turns`, plain404),
    );
    const { client } = renderRail({ session: makeSession() });
    const meter = await screen.findByRole("meter", { name: "Context window" });
    await waitFor(() => expect(meter).toHaveTextContent("35%"));
    await waitFor(() => expect(calls("/usage/turns")).toBe(1));
    // Nothing is fetching, so no retry is waiting either (a retry delay counts as fetching).
    await waitFor(() => expect(client.isFetching()).toBe(0));
    expect(screen.queryByRole("heading", { name: "Turns" })).toBeNull();
    expect(screen.queryByText("Loading turns")).toBeNull();
    expect(screen.queryByText("Turns unavailable")).toBeNull();
    expect(screen.queryByRole("button", { name: "Compact now" })).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(calls("/usage/turns")).toBe(1);
  });

  it("when /compact is 404, then Compact now goes away instead of failing each press", async () => {
    const user = userEvent.setup();
    daemon.use(
      http.get(`${BASE}/usage`, () =>
        HttpResponse.json({ usage: { context: REPORTED, turn_count: 1 } }),
      ),
      http.get(`${BASE}/usage/turns`, () => HttpResponse.json({ turns: [], compactions: [] })),
      http.get(BASE, () => HttpResponse.json({ session: makeSession() })),
      http.post(`${BASE}/compact`, plain404),
    );
    renderRail({ session: makeSession() });
    await user.click(await screen.findByRole("button", { name: "Compact now" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: "Compact now" })).toBeNull());
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByRole("meter", { name: "Context window" })).toHaveTextContent("35%");
    expect(calls("/compact")).toBe(1);
  });
});
