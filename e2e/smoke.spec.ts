import { expect, test } from "./fixtures";

test("when the daemon starts, then the shell renders with no console errors", async ({
  page,
  consoleErrors,
  tideline,
}) => {
  const health = await tideline.api<{ status: string; version: string }>("GET", "/api/health");
  expect(health.body.status).toBe("ok");

  await page.goto("/");
  // The open session names the tab ("Welcome to Tideline · Tideline").
  await expect(page).toHaveTitle(/Tideline$/);
  await expect(page.getByRole("navigation", { name: "Sessions" })).toBeVisible();
  await tideline.screenshot("smoke-shell");
  expect(consoleErrors).toEqual([]);
});

test("when the SPA is served, then it carries the security headers", async ({ page }) => {
  const response = await page.goto("/");
  const headers = response?.headers() ?? {};
  expect(headers["content-security-policy"]).toContain("default-src 'self'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("no-referrer");
});
