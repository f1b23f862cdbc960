// Issue 18, "the numbers": every compaction's before → after figure and its origin read
// the same in the timeline row, the turns list, the chart and the chart's data table, for
// the welcome session and for two compactions in a row; and the demo agent's approvals.
import type { Locator } from "@playwright/test";
import { demoAgentFlag } from "./daemon";
import { expect, test } from "./fixtures";
import type { TidelinePage } from "./tideline-page";

// A daemon of its own (a fresh data dir plays the welcome session; the sessions made here
// must not become the newest one another spec's `/` expects to be the welcome session).
test.use({ daemonArgs: ["--agent", demoAgentFlag("--context-size 200000")] });
// Each test takes pictures of several states in both themes at two widths, each audited.
test.describe.configure({ timeout: 180_000 });

/** A compaction row's detail line (origin · times · figures) whose figures match. */
const rowLine = (tideline: TidelinePage, text: RegExp) =>
  tideline.timeline.locator("p").filter({ hasText: text });

const turnsList = (tideline: TidelinePage) => tideline.rail.getByRole("list", { name: "Turns" });
const chartTable = (tideline: TidelinePage) =>
  tideline.rail.getByRole("table", { name: "Context over time" });

/** The chart table's rows as [point, value] pairs. */
async function tableRows(table: Locator): Promise<string[][]> {
  const rows = table.getByRole("row");
  const count = await rows.count();
  const result: string[][] = [];
  for (let index = 1; index < count; index += 1) {
    result.push(
      await rows
        .nth(index)
        .getByRole("cell")
        .or(rows.nth(index).getByRole("rowheader"))
        .allTextContents(),
    );
  }
  return result;
}

test("when the welcome session has played, then its compaction reads 141.3K → 28.3K everywhere, in report order, with its cost on its own turn", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome to Tideline");
  // Eight turns: the last one reports after the compaction's own turn.
  await expect(turnsList(tideline).getByText("Turn 8", { exact: true })).toBeVisible({
    timeout: 30_000,
  });

  // The row: its own turn's reading (28.3K), not the next turn's (29K); who asked.
  const row = rowLine(tideline, /· 141\.3K → 28\.3K tokens$/);
  await expect(row).toBeVisible();
  await expect(row).toContainText("Requested through the HTTP API");
  await expect(tideline.timeline.getByText(/→ 29K tokens/)).toHaveCount(0);

  // The turns list.
  await expect(
    turnsList(tideline).getByText("Requested through the HTTP API · completed · 141.3K → 28.3K", {
      exact: true,
    }),
  ).toBeVisible();
  // The /compact turn carries its own cost (it read 141.3K tokens), not $0.00.
  const compactTurn = turnsList(tideline)
    .getByRole("listitem")
    .filter({ hasText: /^Turn 7/ });
  await expect(compactTurn).not.toContainText("$0.00");
  await expect(compactTurn).toContainText("$");

  // The chart's table: points in report order, the drop between 141.3K and 28.3K, no climb back.
  await expect
    .poll(async () => tableRows(chartTable(tideline)))
    .toEqual([
      ["Turn 1", expect.stringMatching(/ of 200K$/)],
      ["Turn 2", expect.stringMatching(/ of 200K$/)],
      ["Turn 3", expect.stringMatching(/ of 200K$/)],
      ["Turn 4", "140K of 200K"],
      ["Turn 5", "140.6K of 200K"],
      ["Turn 6", "141.3K of 200K"],
      ["Compaction", "Requested through the HTTP API · completed · 141.3K → 28.3K"],
      ["Turn 7", "28.3K of 200K"],
      ["Turn 8", "29K of 200K"],
    ]);
  const chart = tideline.rail.getByRole("img", {
    name: /^Context over time: 8 turn readings, 1 compaction\./,
  });
  await expect(chart.locator("title", { hasText: "141.3K → 28.3K" })).toHaveCount(1);
  await tideline.rail.getByRole("region", { name: "Context over time" }).scrollIntoViewIfNeeded();
  await tideline.screenshot("numbers-welcome");
  expect(consoleErrors).toEqual([]);
});

test("when two compactions run in a row, then each row keeps its own after figure, also while the second runs", async ({
  tideline,
  consoleErrors,
}) => {
  const session = await tideline.createSession("Two in a row");
  await tideline.open(session);
  await tideline.send("Explain src/app.ts");
  await tideline.waitIdle(session);
  // The second compaction is held 4 s so its running state can be read.
  await tideline.send("/demo slow 0");
  await tideline.waitIdle(session);
  await tideline.send("/demo slow 4");
  await tideline.waitIdle(session);

  await tideline.send("/compact");
  const typed = rowLine(tideline, /^You typed \/compact · .* · [\d.]+K? → [\d.]+K? tokens$/);
  await expect(typed).toBeVisible();
  await tideline.waitIdle(session);
  const [, firstBefore, firstAfter] =
    /([\d.]+K?) → ([\d.]+K?) tokens$/.exec((await typed.textContent()) ?? "") ?? [];

  await tideline.compactNow.click();
  await expect(
    tideline.timeline.getByRole("status", { name: "Compacting context…" }),
  ).toBeVisible();
  // While the second runs, the first already has its after figure (the reading in its turn).
  await expect(typed).toHaveText(new RegExp(`· ${firstBefore} → ${firstAfter} tokens$`));
  await tideline.screenshot("numbers-second-compaction-running");

  await expect(tideline.timeline.getByRole("status", { name: "Context compacted" })).toHaveCount(
    2,
    {
      timeout: 20_000,
    },
  );
  await tideline.waitIdle(session);
  const pressed = rowLine(tideline, /^You pressed Compact now · .* tokens$/);
  // The second starts from the first one's after figure and ends lower.
  await expect(pressed).toHaveText(new RegExp(`· ${firstAfter} → [\\d.]+K? tokens$`));
  await expect(typed).toHaveText(new RegExp(`· ${firstBefore} → ${firstAfter} tokens$`));
  const secondAfter = /→ ([\d.]+K?) tokens$/.exec((await pressed.textContent()) ?? "")?.[1];

  // A later turn grows the context; neither figure moves.
  await tideline.send("Carry on with the meter");
  await tideline.waitIdle(session);
  await expect(typed).toHaveText(new RegExp(`· ${firstBefore} → ${firstAfter} tokens$`));
  await expect(pressed).toHaveText(new RegExp(`· ${firstAfter} → ${secondAfter} tokens$`));
  await expect(
    turnsList(tideline).getByText(
      `You typed /compact · completed · ${firstBefore} → ${firstAfter}`,
      {
        exact: true,
      },
    ),
  ).toBeVisible();
  await expect(
    turnsList(tideline).getByText(
      `You pressed Compact now · completed · ${firstAfter} → ${secondAfter}`,
      { exact: true },
    ),
  ).toBeVisible();
  // The last turn's reading lands with the per-turn usage, a moment after the turn ends.
  await expect
    .poll(async () => (await tableRows(chartTable(tideline))).map(([name]) => name))
    .toEqual([
      "Turn 1",
      "Turn 2",
      "Turn 3",
      "Compaction",
      "Turn 4",
      "Compaction",
      "Turn 5",
      "Turn 6",
    ]);
  const rows = await tableRows(chartTable(tideline));
  expect(rows[3]?.[1]).toBe(`You typed /compact · completed · ${firstBefore} → ${firstAfter}`);
  expect(rows[5]?.[1]).toBe(`You pressed Compact now · completed · ${firstAfter} → ${secondAfter}`);
  // A small session is scaled to its readings: the window is named, not drawn on top.
  await expect(
    tideline.rail.getByText("Scaled to the readings; the 200K window is above the top."),
  ).toBeVisible();
  await tideline.rail.getByRole("region", { name: "Context over time" }).scrollIntoViewIfNeeded();
  await tideline.screenshot("numbers-two-in-a-row");
  expect(consoleErrors).toEqual([]);
});

test("when the demo agent asks to edit a file and to run a command, then the person answers each with the agent's options", async ({
  tideline,
  consoleErrors,
}) => {
  const session = await tideline.createSession("Approvals demo");
  await tideline.open(session);
  await tideline.send("/demo approvals");

  const request = tideline.timeline.getByRole("group", { name: /Needs your approval/ });
  await expect(request).toContainText("Edit src/features/context/meter.tsx");
  await expect(
    request.getByRole("button", { name: "Yes, allow all edits during this session" }),
  ).toBeVisible();
  await expect(request.getByRole("button", { name: "No", exact: true })).toBeVisible();
  await request.scrollIntoViewIfNeeded();
  await tideline.screenshot("numbers-approval-edit");
  await request.getByRole("button", { name: "Yes", exact: true }).click();

  await expect(request).toContainText("npm test -- src/features/context");
  await expect(
    request.getByRole("button", { name: "Yes, and don't ask again for npm test commands" }),
  ).toBeVisible();
  await request.getByRole("button", { name: "No", exact: true }).click();
  await tideline.waitIdle(session);
  await expect(tideline.timeline.getByText(/You declined the test run/)).toBeVisible();
  await tideline.screenshot("numbers-approvals-answered");
  expect(consoleErrors).toEqual([]);
});

test.describe("at 360 px", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("when the context sheet opens on the welcome session, then its chart, table and turns read 141.3K → 28.3K", async ({
    page,
    tideline,
  }) => {
    const ws = await tideline.workspaceId();
    const { body } = await tideline.api<{ sessions: Array<{ id: string; name?: string }> }>(
      "GET",
      `/api/sessions?workspace=${ws}`,
    );
    const welcome = body.sessions.find((session) => session.name === "Welcome to Tideline");
    expect(welcome).toBeDefined();
    await page.goto(`/w/${ws}/s/${welcome?.id}`);
    await page.getByRole("button", { name: /^Context/ }).click();
    const sheet = page.getByRole("dialog", { name: "Context" });
    await expect(sheet.getByRole("table", { name: "Context over time" })).toContainText(
      "Requested through the HTTP API · completed · 141.3K → 28.3K",
    );
    await expect(
      sheet
        .getByRole("list", { name: "Turns" })
        .getByText("Requested through the HTTP API · completed · 141.3K → 28.3K", { exact: true }),
    ).toBeVisible();
    await sheet.getByRole("region", { name: "Context over time" }).scrollIntoViewIfNeeded();
    await tideline.screenshot("numbers-welcome-sheet");
  });
});
