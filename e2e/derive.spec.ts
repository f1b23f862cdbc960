// Continue and Fork from the session page, against the real daemon and demo agents: the
// panel shows the daemon's preview first; the new session's agent picks up the
// conversation with its first prompt, in the numbers the preview showed.
import type { Page } from "@playwright/test";
import { asVariant, audit, VARIANTS } from "./a11y";
import { demoAgentFlag } from "./daemon";
import { expect, test } from "./fixtures";
import type { TidelinePage } from "./tideline-page";

/**
 * The open Fork panel in every variant: the page object's screenshot cycles the widths, and
 * at 360 px the rail is a sheet that must be opened first, so this shot opens it each time.
 */
async function shootForkPanel(page: Page, tideline: TidelinePage) {
  for (const variant of VARIANTS) {
    await asVariant(page, variant, async () => {
      const narrow = variant.width < 1024;
      if (narrow) await page.getByRole("button", { name: /Open the context panel/ }).click();
      await page.getByRole("button", { name: "Fork…" }).click();
      const panel = page.getByRole("group", { name: "Fork this session" });
      await expect(panel).toBeFocused();
      await expect(panel.getByText(/^The new session's agent is sent/)).toBeVisible();
      await page.screenshot({
        path: `reports/screens/fork-panel-${variant.scheme}-${variant.width}.png`,
      });
      tideline.findings.push(...(await audit(page, "fork-panel", variant)));
      // Escape closes the panel only; a second one closes the sheet.
      await page.keyboard.press("Escape");
      await expect(panel).toHaveCount(0);
      if (narrow) {
        await expect(page.getByRole("button", { name: "Fork…" })).toBeFocused();
        await page.keyboard.press("Escape");
      }
    });
  }
}

test.use({
  daemonArgs: [
    "--agent",
    demoAgentFlag(),
    "--agent",
    demoAgentFlag("--no-load-session", "forgetful"),
  ],
});

test("when a session is forked into another agent, then the preview comes first, the fork is named after it and links back, shows what it carried, and its agent picks up the conversation", async ({
  tideline,
  page,
  consoleErrors,
}) => {
  const session = await tideline.createSession("Derive source");
  await tideline.open(session);
  await tideline.send("Plan the billing migration in src/billing.ts");
  await tideline.waitIdle(session);
  await tideline.send("Which tests first?");
  await tideline.waitIdle(session);

  await page.getByRole("button", { name: "Fork…" }).click();
  const panel = page.getByRole("group", { name: "Fork this session" });
  await expect(panel).toBeFocused();
  const summary = panel.getByText(/^The new session's agent is sent (\d+) messages/);
  await expect(summary).toBeVisible();
  const count = /is sent (\d+) messages/.exec((await summary.textContent()) ?? "")?.[1];
  await expect(panel.getByRole("textbox", { name: "Name" })).toHaveValue("Derive source (fork)");
  const agent = panel.getByRole("combobox", { name: "Agent" });
  await expect(agent).toHaveValue("demo");
  await agent.selectOption("forgetful");
  await panel.getByRole("button", { name: "Start fork" }).click();

  await expect(page).not.toHaveURL(new RegExp(`/s/${session.id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Derive source (fork)");
  const related = page.getByRole("navigation", { name: "Related sessions" });
  await expect(related).toHaveText("Forked from Derive source");
  // The first row: what the replay carries, before anything is sent.
  const carried = tideline.timeline.getByRole("region", { name: "Forked from “Derive source”" });
  await expect(carried).toContainText(`gives the agent ${count} messages of that conversation`);
  await carried.getByRole("button", { name: "Show what was carried" }).click();
  await expect(
    carried.getByText("Plan the billing migration in src/billing.ts", { exact: true }),
  ).toBeVisible();
  await tideline.screenshot("fork-carried");
  await expect(tideline.composer).toBeEnabled({ timeout: 20_000 });
  await tideline.send("Carry on.");
  await expect(
    tideline.timeline.getByText(`Picked up from a context replay: ${count} messages`, {
      exact: false,
    }),
  ).toBeVisible({ timeout: 20_000 });

  // And back: the source links forward to its fork and still takes prompts.
  await related.getByRole("link", { name: "Derive source" }).click();
  await expect(page).toHaveURL(new RegExp(`/s/${session.id}$`));
  await expect(related).toHaveText("Forked into Derive source (fork)");
  await expect(tideline.composer).toBeVisible();
  await shootForkPanel(page, tideline);
  expect(consoleErrors).toEqual([]);
});

test("when a session is continued, then the old one links forward and is read-only, and Escape closes the panel", async ({
  tideline,
  page,
  consoleErrors,
}) => {
  const session = await tideline.createSession("Long thread");
  await tideline.open(session);
  await tideline.send("Sketch the importer");
  await tideline.waitIdle(session);

  const opener = page.getByRole("button", { name: "Continue…" });
  await opener.click();
  const panel = page.getByRole("group", { name: "Continue this session" });
  await expect(panel).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);
  await expect(opener).toBeFocused();

  await opener.click();
  await expect(panel.getByRole("textbox", { name: "Name" })).toHaveValue("Long thread (continued)");
  await panel.getByRole("button", { name: "Start continued session" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Long thread (continued)");
  const related = page.getByRole("navigation", { name: "Related sessions" });
  await expect(related).toHaveText("Continued from Long thread");

  await related.getByRole("link", { name: "Long thread" }).click();
  await expect(page).toHaveURL(new RegExp(`/s/${session.id}$`));
  await expect(related).toHaveText("Continued in Long thread (continued)");
  // Read-only with a pointer forward: no message box, no second Continue; Fork stays.
  await expect(tideline.composer).toHaveCount(0);
  await expect(page.getByText(/so it is read-only: send there to go on/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Continue…" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Fork…" })).toBeVisible();
  await tideline.screenshot("continued-source");
  await page
    .getByText(/so it is read-only/)
    .getByRole("link", { name: "Long thread (continued)" })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Long thread (continued)");
  expect(consoleErrors).toEqual([]);
});
