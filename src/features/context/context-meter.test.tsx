// @vitest-environment jsdom
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import {
  BASE,
  makeMarker,
  makeSession,
  REPORTED,
  railDaemon,
  renderRail,
} from "../../testing/context-rail";
import { daemon, mockDaemon } from "../../testing/msw";

mockDaemon(...railDaemon);

const meter = () => screen.getByRole("meter", { name: "Context window" });
/** The meter when there is a figure to expose, else the labelled status text that stands in for it. */
const contextWindow = () =>
  screen.queryByRole("meter", { name: "Context window" }) ??
  screen.getByRole("status", { name: "Context window" });
const noMeter = () => expect(screen.queryByRole("meter")).not.toBeInTheDocument();
const noTurns = { turns: [], compactions: [] };

describe("the context meter", () => {
  it("when usage is reported with a size, then it shows the bar, percent and pair", () => {
    renderRail({ session: makeSession(), context: REPORTED, turns: noTurns });
    expect(meter()).toHaveAttribute("aria-valuemin", "0");
    expect(meter()).toHaveAttribute("aria-valuemax", "256000");
    expect(meter()).toHaveAttribute("aria-valuenow", "89700");
    expect(meter()).toHaveAttribute("aria-valuetext", "35% used, 89.7K of 256K tokens");
    expect(within(meter()).getByText("35%")).toBeVisible();
    expect(within(meter()).getByText("89.7K / 256K")).toBeVisible();
    expect(screen.queryByRole("button", { name: "estimated size" })).not.toBeInTheDocument();
  });

  it("when usage is reported without a size, then it shows the count used and no maximum", () => {
    renderRail({ context: { state: "reported", used: 89_700, sequence: 4 }, turns: noTurns });
    expect(within(contextWindow()).getByText("89.7K used")).toBeVisible();
    noMeter();
  });

  it("when the size is estimated, then a chip says so and explains it", () => {
    renderRail({
      context: { ...REPORTED, state: "estimated_size", size_source: "catalog" },
      turns: noTurns,
    });
    expect(within(contextWindow()).getByText("35%")).toBeVisible();
    expect(screen.getByRole("button", { name: "estimated size" })).toHaveAccessibleDescription(
      "size from the model catalog",
    );
  });

  it("when usage was cleared by a compaction, then it is unknown with the compaction sentence", () => {
    renderRail({
      context: { state: "unknown", cleared_by: { compaction_id: "c1", sequence: 30 } },
      turns: noTurns,
    });
    noMeter();
    expect(within(contextWindow()).getByText("Context usage unknown")).toBeVisible();
    expect(
      within(contextWindow()).getByText(
        "Context compacted. Waiting for the agent's next usage report.",
      ),
    ).toBeVisible();
  });

  it.each([
    ["failed", "The compaction failed, and the context may have changed."],
    ["cancelled", "The compaction stopped before it finished, and the context may have changed."],
  ])("when the compaction that cleared it %s, then the sentence says so", (status, sentence) => {
    renderRail({
      context: { state: "unknown", cleared_by: { compaction_id: "c1", sequence: 30 } },
      turns: { turns: [], compactions: [makeMarker(30, { compaction_id: "c1", status })] },
    });
    noMeter();
    expect(
      within(contextWindow()).getByText(`${sentence} Waiting for the agent's next usage report.`),
    ).toBeVisible();
    expect(screen.queryByText(/Context compacted/)).not.toBeInTheDocument();
  });

  it("when the agent never reported usage, then it says so", () => {
    renderRail({ context: { state: "unknown" }, turns: noTurns });
    expect(within(contextWindow()).getByText("Context usage unknown")).toBeVisible();
    expect(
      within(contextWindow()).getByText("This agent hasn't reported context usage."),
    ).toBeVisible();
  });

  it("when the daemon says usage is unavailable, then it says so", () => {
    renderRail({ context: { state: "unavailable" }, turns: noTurns });
    expect(within(contextWindow()).getByText("Context usage unavailable")).toBeVisible();
  });

  it("while usage loads, then it says 'Loading context'", () => {
    daemon.use(http.get(`${BASE}/usage`, () => new Promise<never>(() => {})));
    renderRail({ turns: noTurns });
    noMeter();
    expect(contextWindow()).toHaveAttribute("aria-busy", "true");
    expect(within(contextWindow()).getByText("Loading context")).toBeVisible();
  });

  it("when usage fails to load, then it says 'Usage unavailable' and Retry reads it again", async () => {
    let fail = true;
    daemon.use(
      http.get(`${BASE}/usage`, () =>
        fail
          ? HttpResponse.json({ error: "boom", code: "internal" }, { status: 500 })
          : HttpResponse.json({ usage: { context: REPORTED, turn_count: 1 } }),
      ),
    );
    renderRail({ turns: noTurns });
    expect(await within(contextWindow()).findByText("Usage unavailable")).toBeVisible();
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(await within(contextWindow()).findByText("35%")).toBeVisible();
  });

  it("when a usage answer is older than a compaction the turns already show, then its figure is not shown", () => {
    renderRail({
      context: REPORTED,
      turns: { turns: [], compactions: [makeMarker(30, { context_used: 89_700 })] },
    });
    expect(within(contextWindow()).getByText("Context usage unknown")).toBeVisible();
    expect(screen.queryByText("35%")).not.toBeInTheDocument();
    noMeter();
  });

  it("while a compaction after the reading runs, then the figure is shown only as 'before it'", () => {
    renderRail({
      context: REPORTED,
      turns: { turns: [], compactions: [makeMarker(30, { status: "in_progress" })] },
    });
    expect(within(contextWindow()).getByText("Compacting context…")).toBeVisible();
    expect(within(contextWindow()).getByText("Before it: 89.7K / 256K")).toBeVisible();
    noMeter();
  });
});
