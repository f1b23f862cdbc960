// Live states (issue 18, items 6, 7, 8, 12, 13, 14): every surface of every open tab says the
// same thing about a session, whoever moved it — another tab, the CLI, a Stop, a dropped
// daemon — and the sidebar stays in one order while sessions work.
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { demoAgentFlag } from "./daemon";
import { expect, test } from "./fixtures";
import { TidelinePage } from "./tideline-page";

const run = promisify(execFile);
const CLI = resolve(import.meta.dirname, "../bin/tideline.mjs");

// Each test reaches several states and photographs them (4 variants each) on a loaded machine.
test.describe.configure({ timeout: 180_000 });

// The demo agent, and the same agent advertising no compaction command.
test.use({
  daemonArgs: [
    ["--agent", demoAgentFlag(), "--agent", demoAgentFlag("--commands none", "bare")],
    { scope: "worker" },
  ],
});

test("when a stopped session is resumed in another tab and by the CLI, then this tab follows its state and transcript", async ({
  page,
  tideline,
  browser,
  daemon,
}) => {
  const session = await tideline.createSession("Shared");
  await tideline.open(session);
  const path = `/api/workspaces/${session.workspace_id}/sessions/${session.id}`;
  expect((await tideline.api("POST", `${path}/stop`)).status).toBe(204);
  const header = tideline.timeline.getByRole("status").filter({ hasText: /^stopped$/ });
  await expect(header).toBeVisible();
  await expect(tideline.resumeNotice).toBeVisible();

  // Another tab (its own browser context) resumes it by sending.
  const other = await browser.newContext({ baseURL: daemon.url });
  const otherTab = new TidelinePage(await other.newPage(), daemon);
  await otherTab.open(session);
  await otherTab.send("Resumed from the other tab");
  await expect(tideline.timeline.getByText("Resumed from the other tab").first()).toBeVisible({
    timeout: 20_000,
  });
  await expect(tideline.timeline.getByRole("status").filter({ hasText: /^ready$/ })).toBeVisible({
    timeout: 20_000,
  });
  await expect(tideline.resumeNotice).toHaveCount(0);
  await other.close();

  // Stopped again, then resumed by the CLI: the same.
  expect((await tideline.api("POST", `${path}/stop`)).status).toBe(204);
  await expect(header).toBeVisible();
  await run(process.execPath, [
    CLI,
    "--api",
    daemon.url,
    "session",
    "prompt",
    session.id,
    "Resumed from the terminal",
    "--wait",
  ]);
  await expect(tideline.timeline.getByText("Resumed from the terminal").first()).toBeVisible({
    timeout: 20_000,
  });
  const sidebar = page.getByRole("navigation", { name: "Sessions" });
  await expect(sidebar.getByRole("link", { name: /Shared/ })).toContainText("ready");
  await tideline.screenshot("resumed-elsewhere");
});

test("when a compaction runs, then header, sidebar and rail all say so, and Stop session asks first", async ({
  page,
  tideline,
}) => {
  const session = await tideline.createSession("Compacting");
  await tideline.open(session);
  await tideline.send("Something to compact");
  await tideline.waitIdle(session);
  await tideline.send("/demo slow 300");
  await tideline.waitIdle(session);
  await tideline.compactNow.click();

  const sidebar = page.getByRole("navigation", { name: "Sessions" });
  await expect(tideline.compactionRows("Compacting context…")).toBeVisible();
  await expect(
    tideline.timeline.getByRole("status").filter({ hasText: /^compacting…$/ }),
  ).toBeVisible();
  await expect(sidebar.getByRole("link", { name: /Compacting/ })).toContainText("compacting…");
  await expect(tideline.compactNow).toHaveAccessibleDescription("A compaction is running");

  // Stop session asks first, says what it ends; Escape keeps the session running.
  await tideline.stopSessionButton.click();
  const dialog = page.getByRole("dialog", { name: "Stop this session?" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("the compaction in progress is cancelled");
  await expect(dialog.getByRole("button", { name: "Keep it running" })).toBeFocused();
  await tideline.screenshot("stop-session-confirm");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(tideline.stopSessionButton).toBeFocused();
  expect((await tideline.session(session)).state).toBe("active");

  // Confirmed: every surface says stopped, none still says compacting.
  await tideline.stopSessionButton.click();
  await dialog.getByRole("button", { name: "Stop session" }).click();
  await expect(
    tideline.timeline.getByRole("status").filter({ hasText: /^stopped$/ }),
  ).toBeVisible();
  await expect(sidebar.getByRole("link", { name: /Compacting/ })).toContainText("stopped");
  await expect(tideline.compactNow).toHaveAccessibleDescription("Session is stopped");
  await expect(tideline.rail.getByText("Compacting context…")).toHaveCount(0);
  await expect(tideline.rail.getByText(/ · in progress/)).toHaveCount(0);
  await expect(tideline.compactionRows("Compacting context…")).toHaveCount(0);
  await tideline.screenshot("stopped-mid-compaction");
});

test("when an agent has no compaction command, then Compact now stays on screen, disabled, with the reason", async ({
  tideline,
}) => {
  const session = await tideline.createSession("No compaction", "bare");
  await tideline.open(session);
  await expect(tideline.compactNow).toHaveAttribute("aria-disabled", "true");
  await expect(tideline.compactNow).toHaveAccessibleDescription(
    "This agent has no compaction command (it offers neither /compact nor /compress)",
  );
  await tideline.screenshot("compact-now-unsupported");
});

test("when sessions work, then the sidebar keeps its order (newest created first) and shows activity in the badge", async ({
  page,
  tideline,
}) => {
  const first = await tideline.createSession("Order one");
  await tideline.createSession("Order two");
  await tideline.open(first);
  const sidebar = page.getByRole("navigation", { name: "Sessions" });
  const names = () =>
    sidebar
      .getByRole("link")
      .filter({ hasText: /Order (one|two)/ })
      .allTextContents();
  await expect.poll(async () => (await names()).length).toBe(2);
  expect((await names())[0]).toContain("Order two");

  // Activity in the older session does not move it up.
  await tideline.send("Now some work in the older session");
  await tideline.waitIdle(first);
  // The list is polled: once it has been read again after the work, the older session is
  // the one with the newest activity, and it still sits second.
  await page.waitForResponse(
    (response) => response.url().includes("/api/sessions?") && response.ok(),
    { timeout: 15_000 },
  );
  const after = await names();
  expect(after[0]).toContain("Order two");
  expect(after[1]).toContain("Order one");
});

test("when the daemon goes away, then every surface says so, Stop session waits, and New session says why in one sentence", async ({
  page,
  tideline,
  daemon,
}) => {
  const session = await tideline.createSession("Offline");
  await tideline.open(session);
  await expect(tideline.timeline.getByRole("status").filter({ hasText: /^ready$/ })).toBeVisible();

  await daemon.stop("SIGKILL");
  const sidebar = page.getByRole("navigation", { name: "Sessions" });
  await expect(tideline.timeline.getByText("Reconnecting…")).toBeVisible({ timeout: 20_000 });
  await expect(sidebar.getByRole("link", { name: /Offline/ })).toContainText("Reconnecting…");
  await expect(sidebar.getByText(/^ready$/)).toHaveCount(0, { timeout: 20_000 });
  await expect(tideline.stopSessionButton).toHaveAttribute("aria-disabled", "true");
  await expect(tideline.stopSessionButton).toHaveAccessibleDescription(
    "Waiting for the daemon to come back…",
  );
  await tideline.screenshot("offline-every-surface");

  await page.getByRole("button", { name: "New session" }).click();
  const dialog = page.getByRole("dialog", { name: "New session" });
  await expect(dialog.getByRole("alert")).toHaveText(
    "Couldn't reach the daemon, so its agents can't be listed. A session can be created once it is back.",
    { timeout: 20_000 },
  );
  await tideline.screenshot("offline-new-session");
  await page.keyboard.press("Escape");

  await daemon.restart();
  await expect(tideline.timeline.getByText("Reconnecting…")).toHaveCount(0, { timeout: 30_000 });
});
