// The compaction audit end to end, in Chromium against the real daemon and the demo agent:
// a compacted session's row gives the span it replaced and what its summary dropped; Remind
// the agent puts those items in the composer (sent only on Send); a pinned message the
// summary lost is flagged; a second compaction compares its summary with the first's; pins
// survive a reload and a daemon restart. Keyboard only where it says so.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { TidelinePage } from "./tideline-page";

const GOAL = "Build a CSV export for the invoices table";
const RULE = "Never include the customer's tax number column";
const LAST = "Now add a download button in web/src/invoices/page.tsx";

async function compactAndWait(tideline: TidelinePage, count = 1) {
  await expect(tideline.compactNow).toBeEnabled();
  await tideline.compactNow.click();
  await expect(tideline.timeline.getByRole("status", { name: "Context compacted" })).toHaveCount(
    count,
    { timeout: 20_000 },
  );
}

/** A row of the person's (it has the pin toggle), by its words. */
function userMessage(page: Page, text: string) {
  return page
    .getByRole("main", { name: "Session timeline" })
    .locator("[data-entry-id]")
    .filter({ has: page.getByRole("button", { name: "Keep this" }) })
    .filter({ hasText: text });
}

/** `/demo lossy` arms a summary that keeps only the goal: the rule and the last request go. */
async function sessionWithThreeTurns(tideline: TidelinePage, name: string, scenario = "lossy") {
  const session = await tideline.createSession(name);
  await tideline.open(session);
  for (const text of [`/demo ${scenario}`, GOAL, RULE, LAST]) {
    await tideline.send(text);
    await tideline.waitIdle(session);
    await expect(userMessage(tideline.page, text)).toBeVisible();
  }
  return session;
}

test("when a session is compacted, then its row names the replaced turns, what the summary dropped, and Remind the agent puts them in the composer until Send", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  test.slow();
  const session = await sessionWithThreeTurns(tideline, "Audit: remind");
  // Pin the rule before the compaction: the audit flags it if the summary drops it.
  const pin = userMessage(page, RULE).getByRole("button", { name: "Keep this" });
  await pin.click();
  await expect(pin).toHaveAttribute("aria-pressed", "true");
  await expect(userMessage(page, RULE).getByText("Pinned", { exact: true })).toBeVisible();

  await compactAndWait(tideline);
  await tideline.waitIdle(session);
  await expect(
    tideline.timeline.getByText(/^Replaced turns 1–4 · \d+ messages · Go to turn 1$/),
  ).toBeVisible();
  await expect(
    tideline.timeline.getByText("A message you pinned is not in the summary."),
  ).toBeVisible();
  // The reference daemon serves the audit: nothing is computed in the browser.
  await expect(tideline.timeline.getByText(/checked in this browser/)).toHaveCount(0);
  const inventory = tideline.timeline.getByRole("button", {
    name: /^What the summary kept · kept \d+ of \d+ · [1-9]\d* dropped$/,
  });
  await expect(inventory).toBeVisible();
  await tideline.screenshot("audit-row");

  await inventory.click();
  const region = page.getByRole("region", {
    name: /^What the summary of the compaction at .* kept$/,
  });
  const dropped = region.getByRole("group", { name: /^Dropped/ }).getByRole("checkbox");
  // The pinned rule first, then the last request; every dropped item chosen.
  await expect(dropped.first()).toHaveAccessibleName(`Pinned message Dropped ${RULE}`);
  await expect(dropped.nth(1)).toHaveAccessibleName(new RegExp(`^Your last request.*${LAST}`));
  for (const box of await dropped.all()) await expect(box).toBeChecked();
  await tideline.screenshot("audit-inventory");

  await region.getByRole("button", { name: "Remind the agent" }).click();
  await expect(tideline.composer).toBeFocused();
  await expect(tideline.composer).toHaveValue(
    /^The last context compaction dropped these from its summary/,
  );
  const prompt = await tideline.composer.inputValue();
  expect(prompt).toContain(`> ${RULE}`);
  expect(prompt).toContain(`> ${LAST}`);
  // Nothing was sent: the prompt waits, editable, for Send.
  await expect(userMessage(page, "The last context compaction dropped")).toHaveCount(0);
  await tideline.screenshot("audit-reminder");
  await tideline.composer.press("End");
  await tideline.composer.pressSequentially(" Thanks.");
  await tideline.sendButton.click();
  await tideline.waitIdle(session);
  await expect(userMessage(page, "The last context compaction dropped")).toBeVisible();
  const transcript = await tideline.api<{
    entries: { message: { role: string; parts: { type: string; text?: string }[] } }[];
  }>("GET", `/api/workspaces/${session.workspace_id}/sessions/${session.id}/transcript`);
  const sent = transcript.body.entries
    .filter((entry) => entry.message.role === "user")
    .map((entry) => entry.message.parts.map((part) => part.text ?? "").join(""));
  // Recorded as sent: the reminder, and what the person typed after it.
  expect(sent.at(-1)).toBe(`${prompt} Thanks.`);
  expect(consoleErrors).toEqual([]);
});

test("keyboard only: jump to the first replaced turn, choose items with Space, remind with Enter, and compare a second compaction with the first", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  test.slow();
  const session = await sessionWithThreeTurns(tideline, "Audit: keyboard", "keep-pinned");
  await compactAndWait(tideline);
  await tideline.waitIdle(session);
  const goTo = tideline.timeline.getByRole("button", { name: "Go to turn 1" });
  await goTo.focus();
  await page.keyboard.press("Enter");
  await expect(userMessage(page, "/demo keep-pinned")).toBeFocused();
  // Back to the compaction row, by keyboard too.
  await page.getByRole("button", { name: "Jump to latest" }).focus();
  await page.keyboard.press("Enter");

  const inventory = tideline.timeline
    .getByRole("button", { name: /^What the summary kept/ })
    .last();
  await inventory.focus();
  await page.keyboard.press("Enter");
  const region = page
    .getByRole("region", { name: /^What the summary of the compaction at .* kept$/ })
    .last();
  // keep-pinned drops the last request and the file it names: unchoose the file.
  const file = region.getByRole("checkbox", { name: /^File Dropped web\/src\/invoices\/page.tsx/ });
  await file.focus();
  await page.keyboard.press("Space");
  await expect(file).not.toBeChecked();
  await region.getByRole("button", { name: "Remind the agent" }).focus();
  await page.keyboard.press("Enter");
  await expect(tideline.composer).toBeFocused();
  await expect(tideline.composer).toHaveValue(/dropped these from its summary/);
  await expect(tideline.composer).toHaveValue(new RegExp(`> ${LAST}`));
  await expect(tideline.composer).not.toHaveValue(/- The file/);
  // The draft is not sent by this test: clear it before the next turns.
  await tideline.composer.fill("");

  for (const text of ["/demo forgetful", "Now split src/invoices/export.ts in two"]) {
    await tideline.send(text);
    await tideline.waitIdle(session);
  }
  await compactAndWait(tideline, 2);
  await tideline.waitIdle(session);

  const compare = tideline.timeline.getByRole("button", {
    name: /^Compare with the previous summary/,
  });
  await compare.focus();
  await page.keyboard.press("Enter");
  const comparison = page.getByRole("region", { name: /against the previous one$/ });
  await expect(comparison.getByText(/^Kept last time, not this time \([1-9]/)).toBeVisible();
  await expect(comparison.getByText(GOAL, { exact: true })).toBeVisible();
  await expect(
    comparison.getByRole("region", { name: "Word changes between the summaries" }),
  ).toBeVisible();
  await expect(comparison.locator("ins, del").first()).toBeVisible();
  await tideline.screenshot("audit-compare");

  expect(consoleErrors).toEqual([]);
});

test("when a message is pinned, then it stays pinned across a reload and a daemon restart, and unpinning sticks", async ({
  page,
  tideline,
  daemon,
}) => {
  test.slow();
  const session = await tideline.createSession("Audit: pins survive");
  await tideline.open(session);
  await tideline.send(RULE);
  await tideline.waitIdle(session);
  const pin = () => userMessage(page, RULE).getByRole("button", { name: "Keep this" });
  await pin().click();
  await expect(pin()).toHaveAttribute("aria-pressed", "true");
  await page.reload();
  await expect(pin()).toHaveAttribute("aria-pressed", "true");
  await daemon.restart("SIGTERM");
  await page.reload();
  await expect(pin()).toHaveAttribute("aria-pressed", "true");
  await pin().press("Enter");
  await expect(pin()).toHaveAttribute("aria-pressed", "false");
  await page.reload();
  await expect(pin()).toHaveAttribute("aria-pressed", "false");
});

test("when a newcomer opens the welcome session, then its compaction says what the summary dropped, and Remind the agent offers it back", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  test.slow();
  await page.goto("/");
  await page
    .getByRole("navigation", { name: "Sessions" })
    .getByRole("link", { name: /Welcome to Tideline/ })
    .click();
  const inventory = tideline.timeline.getByRole("button", {
    name: /^What the summary kept · kept \d+ of \d+ · [1-9]\d* dropped$/,
  });
  await expect(inventory).toBeVisible({ timeout: 20_000 });
  await inventory.click();
  const region = page.getByRole("region", {
    name: /^What the summary of the compaction at .* kept$/,
  });
  await expect(
    region
      .getByRole("group", { name: /^Dropped/ })
      .getByRole("checkbox")
      .first(),
  ).toBeChecked();
  await tideline.screenshot("audit-welcome");
  await region.getByRole("button", { name: "Remind the agent" }).click();
  await expect(tideline.composer).toHaveValue(/^The last context compaction dropped these/);
  // Left unsent: the welcome session stays as it was for the next test.
  await tideline.composer.fill("");
  expect(consoleErrors).toEqual([]);
});
