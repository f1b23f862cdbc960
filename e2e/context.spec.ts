// The context rail against the real daemon and demo agent: the meter's honesty around a
// compaction, Compact now and its refusals, markers and the chart.
import { demoAgentFlag } from "./daemon";
import { expect, test } from "./fixtures";

// One daemon, three agents: the default demo, one with no compaction command, one with compress.
test.use({
  daemonArgs: [
    "--agent",
    demoAgentFlag(),
    "--agent",
    demoAgentFlag("--commands none", "plain"),
    "--agent",
    demoAgentFlag("--commands compress", "squeeze"),
  ],
});

const UNKNOWN_AFTER_COMPACTION = "Context compacted. Waiting for the agent's next usage report.";

test("when a compaction clears the reading, then the meter says unknown until the agent reports again", async ({
  tideline,
  consoleErrors,
}) => {
  const session = await tideline.createSession("Meter honesty");
  await tideline.open(session);
  await tideline.send("Sketch the usage projection");
  await tideline.waitIdle(session);
  await expect(tideline.meter).toHaveAttribute("aria-valuetext", /% used, [\d.]+K? of 200K tokens/);
  const before = await tideline.meter.getAttribute("aria-valuenow");
  expect(Number(before)).toBeGreaterThan(0);
  await tideline.screenshot("context-reported");

  // The codex-style compaction reports no usage afterwards, like the real adapter.
  await tideline.send("/demo codex");
  await tideline.waitIdle(session);
  await tideline.send("/compact");
  await expect(tideline.timeline.getByRole("status", { name: "Context compacted" })).toBeVisible();
  await expect(tideline.rail.getByText("Context usage unknown")).toBeVisible();
  await expect(tideline.rail.getByText(UNKNOWN_AFTER_COMPACTION)).toBeVisible();
  // No number to expose: no role="meter" at all (a browser would say 0 %), a status text instead.
  await expect(tideline.meter).toHaveCount(0);
  await expect(tideline.rail.getByRole("status", { name: "Context window" })).toContainText(
    "Context usage unknown",
  );
  await expect(tideline.rail.getByText(/\d+(\.\d)?K \/ 200K/)).toHaveCount(0);
  await tideline.screenshot("context-unknown-after-compaction");

  await tideline.send("What is left to do?");
  await tideline.waitIdle(session);
  await expect(tideline.meter).toHaveAttribute("aria-valuetext", /% used/);
  await expect(tideline.rail.getByText("Context usage unknown")).toHaveCount(0);
  await tideline.screenshot("context-recovered");
  expect(consoleErrors).toEqual([]);
});

test("when a stopped session is reopened after a daemon restart, then the meter still says unknown", async ({
  page,
  tideline,
  daemon,
}) => {
  const session = await tideline.createSession("Unknown survives restart");
  await tideline.open(session);
  await tideline.send("Write the migration");
  await tideline.waitIdle(session);
  await tideline.send("/demo codex");
  await tideline.waitIdle(session);
  await tideline.send("/compact");
  await expect(tideline.rail.getByText(UNKNOWN_AFTER_COMPACTION)).toBeVisible();
  const stop = await tideline.api(
    "POST",
    `/api/workspaces/${session.workspace_id}/sessions/${session.id}/stop`,
    {},
  );
  expect(stop.status).toBe(204);

  await daemon.restart("SIGTERM");
  await page.reload();
  await expect(tideline.rail.getByText("Context usage unknown")).toBeVisible();
  await expect(tideline.rail.getByText(UNKNOWN_AFTER_COMPACTION)).toBeVisible();
  await expect(tideline.compactNow).toBeDisabled();
  await expect(tideline.compactNow).toHaveAttribute("title", "Session is stopped");
  await tideline.screenshot("context-unknown-after-restart");
});

test("when a turn is running, then Compact now is disabled and says why", async ({ tideline }) => {
  const session = await tideline.createSession("Busy");
  await tideline.open(session);
  await expect(tideline.compactNow).toBeEnabled();
  // A turn that only waits: "/compact" as the turn said "A turn is running" only until its
  // compaction began, a window a loaded machine could miss.
  await tideline.send("/demo wait 4");
  await expect(tideline.compactNow).toBeDisabled();
  await expect(tideline.compactNow).toHaveAttribute("title", "A turn is running");
  await tideline.screenshot("context-compact-now-disabled");
  await expect(tideline.compactNow).toBeEnabled({ timeout: 20_000 });
});

test("when another client wins the race, then the daemon's session_busy text shows inline", async ({
  page,
  tideline,
}) => {
  const session = await tideline.createSession("Race");
  await tideline.open(session);
  await tideline.send("/demo slow 6");
  await tideline.waitIdle(session);

  // Hold the page's request until a second client (a direct call) has started its compaction.
  let otherClientDone: () => void = () => {};
  const otherClient = new Promise<void>((resolve) => {
    otherClientDone = resolve;
  });
  await page.route("**/compact", async (route) => {
    await otherClient;
    await route.continue();
  });
  await tideline.compactNow.click();
  await expect(tideline.compactNow).toHaveAttribute("aria-busy", "true");
  const direct = await tideline.api<{ command: string }>(
    "POST",
    `/api/workspaces/${session.workspace_id}/sessions/${session.id}/compact`,
    {},
    { "User-Agent": "tideline-cli/0.1" },
  );
  expect(direct.status).toBe(202);
  otherClientDone();

  const refusal = tideline.rail.getByRole("alert");
  await expect(refusal).toHaveText(
    "The agent is still working on a turn. Try again when it ends, or stop it first.",
  );
  await tideline.screenshot("context-refusal-session-busy");

  // The refusal clears when the turn that caused it ends.
  await expect(refusal).toHaveCount(0, { timeout: 20_000 });
  await expect(tideline.compactNow).toBeEnabled();
});

test("when a compaction completes and a later turn reports, then the marker shows before → after and the chart its drop", async ({
  tideline,
}) => {
  const session = await tideline.createSession("Markers");
  await tideline.open(session);
  await tideline.send("/demo fill 60");
  await tideline.waitIdle(session);
  await tideline.compactNow.click();
  await expect(tideline.timeline.getByRole("status", { name: "Context compacted" })).toBeVisible();
  await tideline.waitIdle(session);
  // CompozyOS's "after" figure is the first report of a later turn (not the compacting one).
  await tideline.send("Carry on");
  await tideline.waitIdle(session);

  const turns = tideline.rail.getByRole("list", { name: "Turns" });
  await expect(
    turns.getByText(/^You pressed Compact now · completed · 120K → [\d.]+K$/),
  ).toBeVisible();
  const chart = tideline.rail.getByRole("img", { name: /^Context over time: .*1 compaction\./ });
  await expect(chart).toBeVisible();
  await expect(
    chart.locator("title", { hasText: /^You pressed Compact now · completed/ }),
  ).toHaveCount(1);
  await tideline.rail.getByRole("region", { name: "Context over time" }).screenshot({
    path: `${process.env.TIDELINE_SCREENSHOTS ?? "reports/screens"}/context-chart.png`,
  });
  await tideline.screenshot("context-marker-and-chart");
});

test.describe("with an agent that advertises no compaction command", () => {
  test("when the session opens, then Compact now is there, disabled, with the reason", async ({
    tideline,
  }) => {
    const session = await tideline.createSession("No command", "plain");
    await tideline.open(session);
    // No reading yet: a labelled status in the meter's place, not a meter at 0.
    await expect(tideline.rail.getByRole("status", { name: "Context window" })).toBeVisible();
    await tideline.send("Hello");
    await tideline.waitIdle(session);
    await expect(tideline.compactNow).toHaveAttribute("aria-disabled", "true");
    await expect(tideline.compactNow).toHaveAccessibleDescription(
      "This agent has no compaction command (it offers neither /compact nor /compress)",
    );
  });
});

test.describe("with an agent that advertises compress", () => {
  test("when Compact now is pressed, then the agent's compress command runs", async ({
    tideline,
  }) => {
    const session = await tideline.createSession("Compress", "squeeze");
    await tideline.open(session);
    await expect(tideline.compactNow).toBeEnabled();
    await tideline.compactNow.click();
    await expect(tideline.timeline.getByText("/compress")).toBeVisible();
    await expect(
      tideline.timeline.getByRole("status", { name: "Context compacted" }),
    ).toBeVisible();
  });
});
