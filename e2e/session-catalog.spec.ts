// The sidebar follows the session catalog stream (ADR 0141): a session made elsewhere (the
// CLI, another tab, an agent) appears at once, and an idle sidebar reads nothing.
import type { Request } from "@playwright/test";
import { expect, test } from "./fixtures";

const isListRead = (request: Request) => {
  const url = new URL(request.url());
  return request.method() === "GET" && url.pathname === "/api/sessions";
};

test("when sessions are created, renamed and deleted outside the page, then the sidebar follows without polling", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const first = await tideline.createSession("Catalog first");
  const streamOpened = page.waitForRequest((request) =>
    request.url().includes("/api/sessions/catalog-stream"),
  );
  await tideline.open(first);
  await streamOpened;
  const sidebar = page.getByRole("navigation", { name: "Sessions" });
  await expect(sidebar.getByRole("link", { name: /Catalog first/ })).toBeVisible();

  // Idle: once the page has settled, the list is not re-read on a timer (it was, every 5 s).
  await tideline.waitIdle(first);
  await page.waitForTimeout(1_000);
  const reads: string[] = [];
  const count = (request: Request) => {
    if (isListRead(request)) reads.push(request.url());
  };
  page.on("request", count);
  await page.waitForTimeout(11_000);
  expect(reads).toEqual([]);

  // A session made elsewhere shows up well inside the old polling interval...
  const made = Date.now();
  const second = await tideline.api<{ session: { id: string; workspace_id: string } }>(
    "POST",
    "/api/sessions",
    { workspace: first.workspace_id, name: "Made elsewhere" },
  );
  expect(second.status).toBe(201);
  const link = sidebar.getByRole("link", { name: /Made elsewhere/ });
  await expect(link).toBeVisible({ timeout: 3_000 });
  expect(Date.now() - made).toBeLessThan(4_000);
  // Its agent coming up is a catalog change too: once the daemon says so, the badge
  // follows without a poll (the agent's own start-up time is not the sidebar's).
  const secondPath = `/api/sessions/${second.body.session.id}`;
  await expect
    .poll(
      async () =>
        (await tideline.api<{ session: { state: string } }>("GET", secondPath)).body.session.state,
      { timeout: 30_000 },
    )
    .toBe("active");
  await expect(link).toContainText("ready", { timeout: 3_000 });
  await tideline.screenshot("sidebar-after-catalog-change");

  // ...and so do a rename and a delete.
  const path = `/api/workspaces/${second.body.session.workspace_id}/sessions/${second.body.session.id}`;
  expect((await tideline.api("PATCH", path, { name: "Renamed elsewhere" })).status).toBe(200);
  await expect(sidebar.getByRole("link", { name: /Renamed elsewhere/ })).toBeVisible({
    timeout: 3_000,
  });
  await tideline.api("POST", `${path}/stop`);
  await expect
    .poll(
      async () =>
        (await tideline.api<{ session: { state: string } }>("GET", path)).body.session.state,
    )
    .toBe("stopped");
  expect((await tideline.api("DELETE", path)).status).toBe(204);
  await expect(sidebar.getByRole("link", { name: /Renamed elsewhere/ })).toHaveCount(0, {
    timeout: 3_000,
  });
  page.off("request", count);
  expect(consoleErrors).toEqual([]);
});
