// Search (issue 22): Ctrl/⌘+F finds a message of the first turn of a 10,000-entry session
// (thousands of rows above the rendered window, in pages not loaded yet) and lands on it;
// Enter/Shift+Enter, a second Ctrl+F and Escape; the sidebar's name filter and content hits.
import { expect, test } from "./fixtures";
import { longSessionFor } from "./long-session";

const TURNS = 3400;
const FIRST_TURN = "Kickoff: migrate the billing ledger to Postgres";

/** A stopped session of 3,400 turns (3 entries each: 10,200). */
const longSession = longSessionFor({
  name: "Ten thousand entries",
  turns: TURNS,
  message: (turn) => (turn === 1 ? FIRST_TURN : `Step ${turn}: tidy the module`),
});

test.setTimeout(180_000);

test("when Ctrl+F looks for a first-turn message of a 10,000-entry session, then the view lands on it, highlighted", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const long = await longSession();
  await page.goto(long.path);
  const transcript = page.getByRole("region", { name: "Transcript" });
  await expect(transcript.getByText(`Step ${TURNS}: tidy the module`)).toBeVisible();
  await transcript.focus();
  await page.keyboard.press("Control+f");
  const field = page.getByRole("searchbox", { name: "Find in session" });
  await expect(field).toBeFocused();
  await page.keyboard.type("billing ledg");
  const bar = page.getByRole("search", { name: "Find in session" });
  await expect(bar.getByText("1 of 1")).toBeVisible();
  // 10,199 rows up: older pages load until the entry is there, then the list scrolls to it.
  const row = transcript.locator("[data-find-current]");
  await expect(row).toContainText(FIRST_TURN, { timeout: 90_000 });
  await expect(row.getByText(FIRST_TURN)).toBeInViewport();
  await expect(field).toBeFocused();
  const marked = await page.evaluate(() => {
    const highlight = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get(
      "tideline-find-current",
    );
    return [...(highlight ?? [])].map((range) => range.toString());
  });
  expect(marked).toEqual(["billing", "ledg"]);
  await tideline.screenshot("find-first-turn");
  expect(consoleErrors).toEqual([]);
});

test("when the find bar has many matches, then Enter and Shift+Enter move between them, a second Ctrl+F is the browser's, Escape closes it", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const long = await longSession();
  await page.goto(long.path);
  const transcript = page.getByRole("region", { name: "Transcript" });
  await expect(transcript.getByText(`Step ${TURNS}: tidy the module`)).toBeVisible();
  await transcript.focus();
  await page.keyboard.press("Control+f");
  await page.keyboard.type("tidy the");
  const bar = page.getByRole("search", { name: "Find in session" });
  const total = TURNS - 1;
  await expect(bar.getByText(`${total} of ${total}`)).toBeVisible();
  await page.keyboard.press("Shift+Enter");
  await expect(bar.getByText(`${total - 1} of ${total}`)).toBeVisible();
  await expect(transcript.locator("[data-find-current]")).toContainText(`Step ${TURNS - 1}:`);
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  await expect(bar.getByText(`1 of ${total}`)).toBeVisible();
  await expect(transcript.locator("[data-find-current]")).toContainText("Step 2:", {
    timeout: 90_000,
  });
  await tideline.screenshot("find-many-matches");
  // The second press is left to the browser: Tideline does not take it.
  const prevented = await page.evaluate(() => {
    let seen: boolean | undefined;
    window.addEventListener(
      "keydown",
      (event) => {
        seen = event.defaultPrevented;
      },
      { once: true },
    );
    document.activeElement?.dispatchEvent(
      new KeyboardEvent("keydown", { key: "f", ctrlKey: true, bubbles: true, cancelable: true }),
    );
    return seen;
  });
  expect(prevented).toBe(false);
  await page.keyboard.press("Escape");
  await expect(bar).toHaveCount(0);
  await expect(transcript).toBeFocused();
  expect(consoleErrors).toEqual([]);
});

test("when the sidebar is searched, then names filter at once and Enter lists content hits that open the session at the match", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const long = await longSession();
  await page.goto(`${long.daemon.url}/`);
  const sidebar = page.getByRole("navigation", { name: "Sessions" });
  const field = sidebar.getByRole("searchbox", { name: "Search sessions" });
  await field.fill("nothing like it");
  await expect(sidebar.getByText("No session is named so.")).toBeVisible();
  await field.fill("thousand");
  await expect(sidebar.getByRole("link", { name: /Ten thousand entries/ })).toBeVisible();
  await field.fill("postgres");
  await page.keyboard.press("Enter");
  const hits = sidebar.getByRole("region", { name: "Content matches" });
  const hit = hits.getByRole("link", { name: /Ten thousand entries/ });
  await expect(hit).toContainText("Kickoff: migrate the billing ledger to Postgres");
  await expect(hit.locator("mark")).toHaveText("Postgres");
  await tideline.screenshot("sidebar-content-hits");
  await hit.click();
  const transcript = page.getByRole("region", { name: "Transcript" });
  await expect(transcript.locator("[data-find-current]")).toContainText(FIRST_TURN, {
    timeout: 90_000,
  });
  await expect(page.getByRole("searchbox", { name: "Find in session" })).toHaveValue("postgres");
  expect(consoleErrors).toEqual([]);
});
