// The prompt queue and archive/delete (issue 22, items 6 and 4): a message sent while a
// turn runs waits above the composer and goes after the turn; it can be edited, removed or
// sent now; a session can be archived (hidden unless asked for) and deleted after a
// confirmation the daemon may refuse while a turn runs. Each also by keyboard alone.
import { expect, test } from "./fixtures";
import type { TidelinePage } from "./tideline-page";

test.describe.configure({ timeout: 180_000 });

type Ref = { id: string; workspace_id: string };
const pathOf = (ref: Ref) => `/api/workspaces/${ref.workspace_id}/sessions/${ref.id}`;

async function startLongTurn(tideline: TidelinePage, ref: Ref, seconds: number) {
  const { status } = await tideline.api("POST", `${pathOf(ref)}/prompt`, {
    message: `/demo wait ${seconds}`,
    message_id: `m-${Date.now()}`,
    idempotency_key: `k-${Date.now()}`,
  });
  expect(status).toBe(200);
}

test("when messages are sent during a turn, then they queue above the composer, can be edited and removed, and go after it in order", async ({
  page,
  tideline,
}) => {
  const session = await tideline.createSession("Queue");
  await tideline.open(session);
  await startLongTurn(tideline, session, 300);
  await expect(tideline.stopButton).toBeVisible();
  await expect(page.getByText("A turn is running: Send queues your message")).toBeVisible();

  await tideline.send("first, with a typo hre");
  await tideline.send("second, to be removed");
  await tideline.send("third in line");
  const queue = page.getByRole("region", { name: "3 queued messages" });
  await expect(queue).toBeVisible();
  await expect(queue.getByRole("listitem")).toHaveText([/first/, /second/, /third/]);
  await expect(tideline.composer).toHaveValue("");
  await tideline.screenshot("queue-while-turn");

  await queue.getByRole("button", { name: "Edit queued message 1" }).click();
  const editor = queue.getByRole("textbox", { name: "Edit queued message 1" });
  await editor.fill("first, typo fixed here");
  await tideline.screenshot("queue-editing");
  await queue.getByRole("button", { name: "Save queued message 1" }).click();
  await expect(editor).toBeHidden();
  await expect(queue.getByRole("listitem").first()).toHaveText(/first, typo fixed here/);
  await queue.getByRole("button", { name: "Remove queued message 2" }).click();
  const two = page.getByRole("region", { name: "2 queued messages" });
  await expect(two.getByRole("listitem")).toHaveText([/typo fixed/, /third in line/]);

  // Done when: a message sent during a turn queues and goes after it (here the turn ends
  // by Stop, which is quicker than waiting for it).
  await tideline.stopButton.click();
  await expect(two).toBeHidden({ timeout: 30_000 });
  await tideline.waitIdle(session);
  const inputs = await tideline.api<{ events: { content: { text: string } }[] }>(
    "GET",
    `${pathOf(session)}/events?type=input`,
  );
  expect(inputs.body.events.map((event) => event.content.text)).toEqual([
    "/demo wait 300",
    "first, typo fixed here",
    "third in line",
  ]);
  await expect(
    tideline.timeline
      .getByRole("paragraph")
      .filter({ hasText: /^third in line$/ })
      .first(),
  ).toBeVisible();
});

test("when the queue is driven by keyboard alone, then a message is queued, edited and sent now in place of the turn", async ({
  page,
  tideline,
}) => {
  const session = await tideline.createSession("Queue keys");
  await tideline.open(session);
  await startLongTurn(tideline, session, 300);
  await expect(tideline.stopButton).toBeVisible();

  await tideline.composer.focus();
  await page.keyboard.type("steer me");
  await page.keyboard.press("Control+Enter");
  const queue = page.getByRole("region", { name: "1 queued message" });
  await expect(queue).toBeVisible();

  // Shift+Tab from the composer walks back into the queue: Send now, Remove, Edit.
  await page.keyboard.press("Shift+Tab");
  await expect(queue.getByRole("button", { name: "Send now queued message 1" })).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Shift+Tab");
  await expect(queue.getByRole("button", { name: "Edit queued message 1" })).toBeFocused();
  await page.keyboard.press("Enter");
  const editor = queue.getByRole("textbox", { name: "Edit queued message 1" });
  await expect(editor).toBeFocused();
  await page.keyboard.press("End");
  await page.keyboard.type(" now");
  // Escape leaves the edit, and only the edit: the turn keeps running.
  await page.keyboard.press("Escape");
  await expect(editor).toBeHidden();
  await expect(tideline.stopButton).toBeVisible();
  await expect(queue.getByRole("listitem")).toHaveText(/^steer me/);
  await queue.getByRole("button", { name: "Edit queued message 1" }).focus();
  await page.keyboard.press("Enter");
  await page.keyboard.press("End");
  await page.keyboard.type(" now");
  await page.keyboard.press("Control+Enter");
  await expect(editor).toBeHidden();
  await expect(queue.getByRole("listitem")).toHaveText(/steer me now/);

  await queue.getByRole("button", { name: "Send now queued message 1" }).focus();
  await page.keyboard.press("Enter");
  await expect(queue).toBeHidden({ timeout: 20_000 });
  await tideline.waitIdle(session);
  await expect(
    tideline.timeline.getByRole("paragraph").filter({ hasText: /^steer me now$/ }),
  ).toBeVisible();
  const inputs = await tideline.api<{ events: { content: { text: string } }[] }>(
    "GET",
    `${pathOf(session)}/events?type=input`,
  );
  expect(inputs.body.events.map((event) => event.content.text)).toEqual([
    "/demo wait 300",
    "steer me now",
  ]);
});

test("when a session is archived, then the list hides it until Show archived; delete asks first and the daemon refuses mid-turn", async ({
  page,
  tideline,
}) => {
  const session = await tideline.createSession("Archive me");
  await tideline.open(session);
  const sidebar = page.getByRole("navigation", { name: "Sessions" });
  const row = sidebar.getByRole("link", { name: /Archive me/ });
  await expect(row).toBeVisible();
  expect((await tideline.api("POST", `${pathOf(session)}/stop`)).status).toBe(204);
  await expect(tideline.resumeNotice).toBeVisible();

  await page.getByRole("button", { name: "Archive", exact: true }).click();
  await expect(page.getByRole("button", { name: "Unarchive" })).toBeVisible();
  await expect(row).toBeHidden();
  await sidebar.getByRole("checkbox", { name: "Show archived" }).check();
  await expect(row).toContainText("Archived");
  await tideline.screenshot("archived-shown");
  await page.getByRole("button", { name: "Unarchive" }).click();
  await expect(page.getByRole("button", { name: "Archive", exact: true })).toBeVisible();
  await expect(row).not.toContainText("Archived");

  // Keyboard only: the dialog opens on "Keep it"; the daemon refuses while a turn runs.
  await startLongTurn(tideline, session, 60);
  await expect(tideline.stopButton).toBeVisible();
  await page.getByRole("button", { name: "Delete…" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Delete this session?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Keep it" })).toBeFocused();
  await expect(dialog).toContainText("A turn is running");
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Delete session" })).toBeFocused();
  await page.keyboard.press("Enter");
  const refused = dialog.getByRole("alert");
  await expect(refused).toContainText("stop it before deleting the session");
  await tideline.screenshot("delete-refused");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Delete…" })).toBeFocused();
  // Escape closed the dialog only; the turn still runs until Stop.
  await expect(tideline.stopButton).toBeVisible();
  await tideline.stopButton.click();
  await tideline.waitIdle(session);

  await page.getByRole("button", { name: "Delete…" }).click();
  await dialog.getByRole("button", { name: "Delete session" }).click();
  // Home opens the newest session left: never the deleted one.
  await expect(page).not.toHaveURL(new RegExp(session.id));
  await expect(row).toBeHidden();
  expect((await tideline.api("GET", pathOf(session))).status).toBe(404);
});
