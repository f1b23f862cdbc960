// Settings, notifications and the shortcuts help (issue 22): the theme remembered per
// browser, an approval waiting in another session told in the tab's title, its icon and a
// desktop notification that opens the session, and `?` anywhere but in a field.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { SessionJson, TidelinePage } from "./tideline-page";

/** The page's Notification, recorded: headless Chromium shows none of its own. */
async function recordNotifications(page: Page) {
  await page.addInitScript(() => {
    type Note = {
      title: string;
      body?: string | undefined;
      onclick: (() => void) | null;
      close(): void;
    };
    const notes: Note[] = [];
    (window as unknown as { __notes: Note[] }).__notes = notes;
    class Recorded {
      static permission = "default";
      static async requestPermission() {
        Recorded.permission = "granted";
        return "granted";
      }
      title: string;
      body: string | undefined;
      onclick: (() => void) | null = null;
      constructor(title: string, options?: { body?: string }) {
        this.title = title;
        this.body = options?.body;
        notes.push(this);
      }
      close() {}
    }
    Object.defineProperty(window, "Notification", { value: Recorded, configurable: true });
  });
}

async function prompt(tideline: TidelinePage, session: SessionJson, message: string) {
  const key = `e2e-${Date.now()}-${Math.random()}`;
  const path = `/api/workspaces/${session.workspace_id}/sessions/${session.id}/prompt`;
  const { status } = await tideline.api("POST", path, {
    message,
    message_id: key,
    idempotency_key: key,
  });
  expect(status).toBeLessThan(300);
}

test("when Dark is chosen in Settings, then the page is dark, stays dark after a reload, and System follows the OS again", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const session = await tideline.createSession("Themes");
  await tideline.open(session);
  await page.emulateMedia({ colorScheme: "light" });
  const settings = page.getByRole("button", { name: "Settings" });
  await settings.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("radio", { name: "Dark" }).check();
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  const dark = await background();
  await page.keyboard.press("Escape");
  await expect(settings).toBeFocused();
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await background()).toBe(dark);
  await page.getByRole("button", { name: "Settings" }).click();
  await page
    .getByRole("dialog", { name: "Settings" })
    .getByRole("radio", { name: "System" })
    .check();
  await expect(page.locator("html")).not.toHaveAttribute("data-theme", /./);
  expect(await background()).not.toBe(dark);
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await background()).toBe(dark);
  await tideline.screenshot("settings-open");
  expect(consoleErrors).toEqual([]);
});

test("when an approval waits in another session, then the tab's title and icon count it and the desktop notification opens that session", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  await recordNotifications(page);
  const here = await tideline.createSession("Reading here");
  const there = await tideline.createSession("Busy elsewhere");
  await tideline.open(here);
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("checkbox", { name: "Desktop notifications" }).check();
  await expect(dialog.getByRole("checkbox", { name: "Desktop notifications" })).toBeChecked();
  await expect(dialog.getByRole("checkbox", { name: "A turn finished" })).toBeChecked();
  await dialog.getByRole("button", { name: "Done" }).click();

  await prompt(tideline, there, "/demo approvals");
  const notes = () =>
    page.evaluate(() =>
      (window as unknown as { __notes: { title: string; body?: string }[] }).__notes.map(
        (note) => `${note.title} — ${note.body}`,
      ),
    );
  await expect
    .poll(notes, { timeout: 20_000 })
    .toContain(
      "Approval waiting · Busy elsewhere — The agent asks: Edit src/features/context/meter.tsx",
    );
  await expect(page).toHaveTitle(/^\(1\) /);
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", /^data:image\/svg\+xml,/);
  await tideline.screenshot("notification-counted");

  // The notification opens the session; looking at it clears the count.
  await page.evaluate(() => {
    const notes = (
      window as unknown as { __notes: { title: string; onclick: (() => void) | null }[] }
    ).__notes;
    notes.find((note) => note.title.startsWith("Approval waiting"))?.onclick?.();
  });
  await expect(page).toHaveURL(new RegExp(`/s/${there.id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Busy elsewhere");
  await expect(page).not.toHaveTitle(/^\(\d+\) /);
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", /favicon\.svg$/);
  expect(consoleErrors).toEqual([]);
});

test("when the tab is hidden and an approval waits in the open session, then it is notified, and showing the tab clears the count", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  await recordNotifications(page);
  const session = await tideline.createSession("Hidden tab");
  await tideline.open(session);
  await page.getByRole("button", { name: "Settings" }).click();
  await page.getByRole("checkbox", { name: "Desktop notifications" }).check();
  await page.getByRole("button", { name: "Done" }).click();
  const setHidden = (hidden: boolean) =>
    page.evaluate((value) => {
      Object.defineProperty(document, "hidden", { get: () => value, configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
    }, hidden);
  await setHidden(true);
  await prompt(tideline, session, "/demo approvals");
  await expect
    .poll(
      () =>
        page.evaluate(() =>
          (window as unknown as { __notes: { title: string }[] }).__notes.map((note) => note.title),
        ),
      { timeout: 20_000 },
    )
    .toContain("Approval waiting · Hidden tab");
  await expect(page).toHaveTitle(/^\(1\) /);
  await setHidden(false);
  await expect(page).not.toHaveTitle(/^\(\d+\) /);
  expect(consoleErrors).toEqual([]);
});

test("when ? is pressed outside a field, then the shortcuts open, and Escape gives focus back; in the message box it is typed", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const session = await tideline.createSession("Shortcuts");
  await tideline.open(session);
  const composer = page.getByRole("combobox", { name: "Message" });
  await composer.focus();
  await page.keyboard.type("why?");
  await expect(composer).toHaveValue("why?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toHaveCount(0);

  const settings = page.getByRole("button", { name: "Settings" });
  await settings.focus();
  await page.keyboard.press("Shift+Slash");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  await expect(help.getByRole("rowheader", { name: "Ctrl/⌘ + Enter" })).toBeVisible();
  await tideline.screenshot("shortcuts-help");
  await page.keyboard.press("Escape");
  await expect(help).toHaveCount(0);
  await expect(settings).toBeFocused();
  expect(consoleErrors).toEqual([]);
});
