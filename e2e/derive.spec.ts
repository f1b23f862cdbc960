// Continue and Fork from the session page, against the real daemon and demo agents: the
// panel shows the daemon's preview first; the new session's agent picks up the
// conversation with its first prompt, in the numbers the preview showed.
import { demoAgentFlag } from "./daemon";
import { expect, test } from "./fixtures";

test.use({
  daemonArgs: [
    "--agent",
    demoAgentFlag(),
    "--agent",
    demoAgentFlag("--no-load-session", "forgetful"),
  ],
});

test("when a session is forked into another agent, then the preview comes first and the fork's agent picks up the conversation", async ({
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
  const summary = panel.getByText(/^The new session's agent is sent (\d+) messages/);
  await expect(summary).toBeVisible();
  const count = /is sent (\d+) messages/.exec((await summary.textContent()) ?? "")?.[1];
  await panel.getByLabel("Agent (empty: the same agent)").fill("forgetful");
  await panel.getByRole("button", { name: "Start fork" }).click();

  await expect(page).not.toHaveURL(new RegExp(`/s/${session.id}$`));
  await expect(tideline.composer).toBeEnabled({ timeout: 20_000 });
  await tideline.send("Carry on.");
  await expect(
    tideline.timeline.getByText(`Picked up from a context replay: ${count} messages`, {
      exact: false,
    }),
  ).toBeVisible({ timeout: 20_000 });
  // At the end: the page object's screenshot cycles the widths, and at 360 px the rail
  // (with the open Fork panel) becomes a closed sheet, so mid-flow it would lose the panel.
  await tideline.screenshot("fork-picked-up");
  expect(consoleErrors).toEqual([]);
});
