// Issue 12, as a person uses it: keyboard paths, the narrow screen, states that say what
// happened, and the timeline following what matters. Every named state also passes axe in
// both schemes at 1280 and 360 px (the fixture's gate).
import { demoAgentFlag } from "./daemon";
import { expect, test } from "./fixtures";

// A daemon of its own (no welcome session): the sessions made here must not become the
// newest one another spec's `/` redirect expects to be the welcome session.
test.use({ daemonArgs: ["--agent", demoAgentFlag(), "--no-welcome"] });

test("when New session is pressed, then the new session's hint shows and focus is in the message box", async ({
  page,
  tideline,
}) => {
  await tideline.createSession("Somewhere to start from");
  await page.goto("/");
  const create = page.getByRole("button", { name: "New session" });
  await create.click();
  // The dialog picks the agent (the default is checked); Create session starts it.
  await page.getByRole("button", { name: "Create session" }).click();
  await expect(page).toHaveURL(/\/s\/ses_/);
  await expect(tideline.timeline.getByText(/Write to the agent in the box below/)).toBeVisible();
  await expect(tideline.composer).toBeFocused();
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  await tideline.screenshot("new-session");
});

test("when the first Tab is pressed, then a skip link leads to the message box", async ({
  page,
  tideline,
}) => {
  const session = await tideline.createSession("Skipping");
  await tideline.open(session);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to the message box" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(tideline.composer).toBeFocused();
});

test("when Escape is pressed during a turn, then the turn stops and focus stays in the composer", async ({
  tideline,
}) => {
  const session = await tideline.createSession("Escaping");
  await tideline.open(session);
  await tideline.send("/demo slow 30");
  await tideline.waitIdle(session);
  await tideline.send("/compact");
  await expect(
    tideline.timeline.getByRole("status", { name: "Compacting context…" }),
  ).toBeVisible();
  await expect(tideline.composer).toBeFocused();
  await tideline.page.keyboard.press("Escape");
  await expect(
    tideline.timeline.getByRole("status", { name: "Context compaction cancelled" }),
  ).toBeVisible({ timeout: 15_000 });
  await expect(tideline.stopButton).toHaveCount(0);
  await expect(tideline.composer).toBeFocused();
  // The row says who asked for it: the person typed the command.
  await expect(tideline.timeline.getByText("You typed /compact")).toBeVisible();
  await expect(
    tideline.rail
      .getByRole("list", { name: "Turns" })
      .getByText(/You typed \/compact · cancelled · from/),
  ).toBeVisible();
  await expect(tideline.rail.getByRole("status", { name: "Context window" })).toContainText(
    "The compaction stopped before it finished",
  );
  await tideline.screenshot("cancelled-by-escape");
});

test("when the agent crashes mid-compaction, then the row says interrupted, why, and its partial summary", async ({
  tideline,
}) => {
  const session = await tideline.createSession("Crashing");
  await tideline.open(session);
  await tideline.send("Plan something worth summarizing");
  await tideline.waitIdle(session);
  await tideline.send("/demo crash");
  await tideline.waitIdle(session);
  await tideline.send("/compact");
  const row = tideline.timeline.getByRole("alert", {
    name: /^Context compaction interrupted — agent exited/,
  });
  await expect(row).toBeVisible({ timeout: 20_000 });
  await expect(row).toHaveAccessibleName(/agent exited \((code \d+|signal \w+)\)$/);
  // The same word in the turns list and the chart's data table: not "cancelled".
  await expect(
    tideline.rail.getByRole("listitem").filter({ hasText: / · interrupted · / }),
  ).toBeVisible();
  await expect(
    tideline.rail.getByRole("cell", { name: / · interrupted · /, includeHidden: true }),
  ).toHaveCount(1);
  await expect(tideline.rail.getByText(/ · cancelled · /)).toHaveCount(0);
  await tideline.screenshot("interrupted-by-crash");
});

test("when a summary is 16 KiB, then it scrolls inside a bounded box with Copy in view", async ({
  page,
  tideline,
}) => {
  const session = await tideline.createSession("Big summary");
  await tideline.open(session);
  await tideline.send("/demo big");
  await tideline.waitIdle(session);
  await tideline.send("/compact");
  await expect(tideline.timeline.getByRole("status", { name: "Context compacted" })).toBeVisible({
    timeout: 20_000,
  });
  await page.getByRole("button", { name: /^Summary of the compaction at / }).click();
  const region = page.getByRole("region", { name: /^Summary of the compaction at / });
  const box = await region.boundingBox();
  expect(box?.height ?? 0).toBeLessThan(500);
  await expect(region.getByRole("button", { name: "Copy" })).toBeInViewport();
  await tideline.screenshot("big-summary-open");
});

test("when a reply has Markdown headings and code, then they sit below the page's headings", async ({
  page,
  tideline,
}) => {
  const session = await tideline.createSession("Markdown");
  await tideline.open(session);
  await tideline.send("/demo markdown");
  await tideline.waitIdle(session);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Markdown");
  await expect(tideline.timeline.getByRole("heading", { level: 3 }).first()).toBeVisible();
  await expect(tideline.timeline.locator("pre").first()).toHaveAttribute("tabindex", "0");
  await tideline.screenshot("markdown-reply");
});

test("when the window is resized or the reader sends a message, then the view follows the tail", async ({
  page,
  tideline,
}) => {
  const session = await tideline.createSession("Following");
  await tideline.open(session);
  await tideline.send("/demo fill 20");
  await tideline.waitIdle(session);
  const transcript = tideline.timeline.getByRole("region", { name: "Transcript" });
  const atBottom = () =>
    transcript.evaluate(
      (element) => element.scrollHeight - element.scrollTop - element.clientHeight,
    );
  await expect.poll(atBottom).toBeLessThan(90);

  await page.setViewportSize({ width: 900, height: 600 });
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(page.getByRole("button", { name: /Jump to latest/ })).toHaveCount(0);
  await expect.poll(atBottom).toBeLessThan(90);

  // Reading back up stops following; the reader's own message brings the tail back.
  await transcript.evaluate((element) => element.scrollBy(0, -2000));
  const jump = page.getByRole("button", { name: /Jump to latest/ });
  await expect(jump).toBeVisible();
  await tideline.screenshot("reading-back-jump-to-latest");
  await tideline.send("And one more thing");
  await expect(jump).toHaveCount(0);
  await tideline.waitIdle(session);
  await expect(tideline.timeline.getByText("And one more thing").first()).toBeInViewport();
});

test.describe("at 360 px", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("when the header's meter is tapped, then the context sheet opens with the meter and Compact now", async ({
    page,
    tideline,
  }) => {
    const session = await tideline.createSession("Narrow");
    await tideline.open(session);
    await tideline.send("Fill a little context");
    await tideline.waitIdle(session);
    await expect(tideline.rail).toHaveCount(0);
    const opener = page.getByRole("button", { name: /^Context/ });
    await opener.click();
    const sheet = page.getByRole("dialog", { name: "Context" });
    await expect(sheet).toBeVisible();
    await expect(sheet.getByRole("meter", { name: "Context window" })).toBeVisible();
    await expect(sheet.getByRole("button", { name: "Compact now" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(sheet).toBeHidden();
    await expect(opener).toBeFocused();
    await opener.click();
    await expect(sheet).toBeVisible();
    await tideline.screenshot("narrow-context-sheet");
  });
});
