// @vitest-environment jsdom
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import {
  BASE,
  makeMarker,
  makeTurn,
  REPORTED,
  railDaemon,
  renderRail,
} from "../../testing/context-rail";
import { daemon, mockDaemon } from "../../testing/msw";

mockDaemon(...railDaemon);

const turnsList = () => screen.getByRole("list", { name: "Turns" });

describe("the turns list", () => {
  it("lists turns newest first with tokens, cost and the markers between them", () => {
    renderRail({
      context: REPORTED,
      turns: {
        turns: [
          makeTurn(1, {
            input_tokens: 1000,
            output_tokens: 200,
            cache_read_tokens: 800,
            cost_amount: 0.0123,
            cost_currency: "USD",
          }),
          makeTurn(10, { output_tokens: 50 }),
        ],
        compactions: [
          makeMarker(5, { context_used: 180_000, context_after: { used: 42_000, sequence: 12 } }),
        ],
      },
    });
    const items = within(turnsList()).getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual([
      "Turn 2out 50—",
      "The agent compacted on its own · completed · 180K → 42K",
      "Turn 1in 1K · out 200 · cache 800$0.012",
    ]);
  });

  it("shows the newest 50 turns, and the rest on 'Show earlier turns'", async () => {
    renderRail({
      context: REPORTED,
      turns: {
        turns: Array.from({ length: 53 }, (_, index) => makeTurn(index + 1)),
        compactions: [],
      },
    });
    expect(within(turnsList()).getAllByRole("listitem")).toHaveLength(50);
    expect(within(turnsList()).queryByText("Turn 3")).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Show earlier turns" }));
    expect(within(turnsList()).getAllByRole("listitem")).toHaveLength(53);
    expect(within(turnsList()).getByText("Turn 1")).toBeVisible();
    await userEvent.click(screen.getByRole("button", { name: "Show only the newest turns" }));
    expect(within(turnsList()).getAllByRole("listitem")).toHaveLength(50);
  });

  it("offers no toggle with 50 turns or fewer, and says when there are none", () => {
    renderRail({ context: REPORTED, turns: { turns: [], compactions: [] } });
    expect(screen.getByText("No turns yet.")).toBeVisible();
    expect(screen.queryByRole("button", { name: "Show earlier turns" })).not.toBeInTheDocument();
  });

  it("when turns fail to load, then it says so with Retry, and the meter still reads usage", async () => {
    daemon.use(
      http.get(`${BASE}/usage/turns`, () =>
        HttpResponse.json({ error: "boom", code: "internal" }, { status: 500 }),
      ),
    );
    renderRail({ context: REPORTED });
    expect(await screen.findByText("Turns unavailable")).toBeVisible();
    expect(screen.getByRole("button", { name: "Retry" })).toBeEnabled();
    expect(screen.getByRole("meter", { name: "Context window" })).toHaveAttribute(
      "aria-valuenow",
      "89700",
    );
  });
});

describe("the context chart", () => {
  it("describes itself in words and carries the same figures as a table", () => {
    renderRail({
      context: REPORTED,
      turns: {
        turns: [
          makeTurn(1, { context_used: 180_000, context_size: 256_000 }),
          makeTurn(10, { context_used: 42_000, context_size: 256_000 }),
        ],
        compactions: [
          makeMarker(5, { context_used: 180_000, context_after: { used: 42_000, sequence: 12 } }),
        ],
      },
    });
    const chart = screen.getByRole("img", {
      name: "Context over time: 2 turn readings, 1 compaction. Latest 42K of 256K; peak 180K. Window 256K.",
    });
    expect(chart.tagName.toLowerCase()).toBe("svg");
    const table = screen.getByRole("table", { name: "Context over time" });
    // Hidden by a wrapper: a table ignores width/overflow, so `sr-only` on it widened the page.
    expect(table).not.toHaveClass("sr-only");
    expect(table.parentElement).toHaveClass("sr-only");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      "Turn 1180K of 256K",
      "CompactionThe agent compacted on its own · completed · 180K → 42K",
      "Turn 242K of 256K",
    ]);
    // Every point and drop has a tooltip.
    expect([...chart.querySelectorAll("title")].map((title) => title.textContent)).toEqual([
      "Context window: 256K",
      "The agent compacted on its own · completed · 180K → 42K",
      "Turn 1: 180K of 256K",
      "Turn 2: 42K of 256K",
    ]);
  });

  it("draws at most 45 hover markers for a long session, the newest among them, and tabulates the newest 100", async () => {
    const turns = Array.from({ length: 1_000 }, (_, index) =>
      makeTurn(index + 1, { context_used: 1_000 + index, context_size: 256_000 }),
    );
    renderRail({ context: REPORTED, turns: { turns, compactions: [] } });
    const chart = await screen.findByRole("img", { name: /1000 turn readings/ });
    const titles = [...chart.querySelectorAll("title")].map((title) => title.textContent);
    expect(titles.length).toBeLessThanOrEqual(45);
    expect(titles.at(-1)).toMatch(/^Turn 1000: /);
    const table = screen.getByRole("table", { name: "Context over time" });
    expect(within(table).getAllByRole("row")).toHaveLength(101);
    expect(within(table).getAllByRole("rowheader").at(-1)).toHaveTextContent("Turn 1000");
    expect(screen.getByText(/the 900 earlier ones are in the turns list/)).toBeInTheDocument();
  });

  it("says when there is nothing to draw", () => {
    renderRail({ context: REPORTED, turns: { turns: [makeTurn(1)], compactions: [] } });
    expect(screen.queryByRole("img")).not.toBeInTheDocument();
    expect(screen.getByText("No context readings yet.")).toBeVisible();
  });
});
