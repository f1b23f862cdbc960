// Keyboard and reading flows of issue 18 against the real daemon: focus after picking a
// session, rename's h1 and empty name, long replies folded, Home to the very first entry
// of a long (seeded) transcript, and a summary opened at the bottom of the view.
import { expect, test } from "./fixtures";
import { longSessionFor } from "./long-session";

// 400 turns: about 1,200 entries, six pages of 200; the compaction is in the last but one.
const longSession = longSessionFor({
  name: "Long history",
  turns: 400,
  message: (turn) => `Step ${turn}: refine the ledger`,
  compactionAt: 399,
});

test("when Enter picks a session in the sidebar, then focus lands on its heading", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const first = await tideline.createSession("First thread");
  await tideline.createSession("Second thread");
  await tideline.open(first);
  const sessions = page.getByRole("navigation", { name: "Sessions" });
  await sessions.getByRole("link", { name: /Second thread/ }).focus();
  await page.keyboard.press("Enter");
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toHaveText("Second thread");
  await expect(heading).toBeFocused();
  expect(consoleErrors).toEqual([]);
});

test("when a session is renamed to nothing, then the page keeps its h1 and says why", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const session = await tideline.createSession("Rename me");
  await tideline.open(session);
  await page.getByRole("button", { name: "Rename session" }).click();
  const field = page.getByRole("textbox", { name: "Session name" });
  await expect(field).toBeFocused();
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  await field.fill("   ");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alert")).toHaveText(
    'A session needs a name: type one, or press Escape to keep "Rename me".',
  );
  await expect(field).toBeFocused();
  await tideline.screenshot("rename-empty");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Rename me");
  expect(consoleErrors).toEqual([]);
});

test("when the welcome session's long reply is shown, then it is folded and Show more opens it in place", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  // Eight screenshots, each audited by axe: over 40 s on a loaded 2-core machine.
  test.slow();
  await page.goto("/");
  await page.getByRole("link", { name: /Welcome to Tideline/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome to Tideline");
  // The reply sits above the newest turns, outside the virtual window: scroll up to it.
  const more = tideline.timeline.getByRole("button", { name: /^Show more \(/ });
  await tideline.scrollUpTo(more);
  await expect(more).toBeVisible();
  await tideline.screenshot("long-reply-folded");
  await more.focus();
  await page.keyboard.press("Enter");
  const less = tideline.timeline.getByRole("button", { name: "Show less" });
  await expect(less).toBeFocused();
  await expect(less).toHaveAttribute("aria-expanded", "true");
  // The row was re-measured: the next row starts below the opened reply, not on top of it.
  const rows = tideline.timeline.locator("[data-index]");
  const row = rows.filter({ has: page.getByRole("button", { name: "Show less" }) });
  const rowBox = await row.boundingBox();
  const index = Number(await row.getAttribute("data-index"));
  const next = tideline.timeline.locator(`[data-index="${index + 1}"]`);
  await less.scrollIntoViewIfNeeded();
  await expect
    .poll(async () => {
      const [a, b] = [await row.boundingBox(), await next.boundingBox()];
      return a && b ? b.y - (a.y + a.height) : undefined;
    })
    .toBeGreaterThanOrEqual(-1);
  expect(rowBox?.height ?? 0).toBeGreaterThan(1_000);
  await tideline.screenshot("long-reply-open");
  // The screenshots resized the page to 360 px and back: the focused row stayed rendered.
  await expect(less).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(tideline.timeline.getByRole("button", { name: /^Show more \(/ })).toBeFocused();
  expect(consoleErrors).toEqual([]);
});

test("when Home is pressed in a long transcript, then the first entry is reached in one press", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const long = await longSession();
  await page.goto(long.path);
  const transcript = page.getByRole("region", { name: "Transcript" });
  await expect(transcript.getByText("Step 400: refine the ledger")).toBeVisible();
  await transcript.focus();
  await page.keyboard.press("Home");
  await expect(transcript.getByText("Step 1: refine the ledger", { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expect.poll(() => transcript.evaluate((element) => element.scrollTop)).toBe(0);
  await tideline.screenshot("home-first-entry");
  // End goes back to the newest.
  await page.keyboard.press("End");
  await expect(transcript.getByText("Step 400: refine the ledger")).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test("when a summary is opened at the bottom of the view, then its start scrolls into view", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const long = await longSession();
  await page.goto(long.path);
  const transcript = page.getByRole("region", { name: "Transcript" });
  const disclosure = transcript.getByRole("button", { name: /^Summary of the compaction at / });
  await expect(disclosure).toBeVisible();
  // Put the disclosure on the last line of the view, as a reader scrolling up would find it.
  await transcript.evaluate((element) => {
    const button = element.querySelector<HTMLElement>('button[aria-label^="Summary of"]');
    if (!button) return;
    const view = element.getBoundingClientRect();
    element.scrollTop += button.getBoundingClientRect().bottom - view.bottom + 2;
  });
  await disclosure.focus();
  await page.keyboard.press("Enter");
  const region = page.getByRole("region", { name: /^Summary of the compaction at / });
  await expect(region.getByRole("heading", { name: "Goal" })).toBeVisible();
  await expect
    .poll(async () => {
      const [box, view] = [await region.boundingBox(), await transcript.boundingBox()];
      return box && view ? box.y >= view.y && box.y + 40 <= view.y + view.height : false;
    })
    .toBe(true);
  await tideline.screenshot("summary-opened-at-bottom");
  expect(consoleErrors).toEqual([]);
});
