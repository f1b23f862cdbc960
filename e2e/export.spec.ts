// Export from the session header (issue 22): the menu by keyboard, a Markdown download with
// the session's name, and the words of a daemon that refuses.
import { readFileSync } from "node:fs";
import { expect, test } from "./fixtures";

test("when Export → Markdown is chosen by keyboard, then the session's transcript downloads under its name", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const session = await tideline.createSession("Export me");
  await tideline.open(session);
  await tideline.send("Explain the ledger in two lines");
  await tideline.waitIdle(session);
  const exportButton = page.getByRole("button", { name: "Export" });
  await exportButton.focus();
  await page.keyboard.press("Enter");
  await expect(exportButton).toHaveAttribute("aria-expanded", "true");
  const formats = page.getByRole("list", { name: "Export formats" });
  await expect(formats.getByRole("button")).toHaveText([
    "Markdown transcript",
    "JSON (the transcript)",
    "JSONL (the ledger's rows)",
  ]);
  await tideline.screenshot("export-menu-open");
  // Escape closes it and gives focus back.
  await page.keyboard.press("Escape");
  await expect(formats).toHaveCount(0);
  await expect(exportButton).toBeFocused();

  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expect(formats.getByRole("button", { name: "Markdown transcript" })).toBeFocused();
  const download = page.waitForEvent("download");
  await page.keyboard.press("Enter");
  const file = await download;
  expect(file.suggestedFilename()).toBe("Export-me.md");
  const text = readFileSync((await file.path()) ?? "", "utf8");
  expect(text).toMatch(/^# Export me\n/);
  expect(text).toContain("### You\n\nExplain the ledger in two lines");
  await expect(formats).toHaveCount(0);
  await expect(exportButton).toBeFocused();
  expect(consoleErrors).toEqual([]);
});

test("when the daemon cannot export, then the menu says so in place", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const session = await tideline.createSession("No export");
  await tideline.open(session);
  await page.route("**/export?format=json", (route) =>
    route.fulfill({
      status: 404,
      contentType: "application/json",
      body: JSON.stringify({ error: "no such endpoint", code: "not_found" }),
    }),
  );
  await page.getByRole("button", { name: "Export" }).click();
  await page.getByRole("button", { name: "JSON (the transcript)" }).click();
  await expect(page.getByRole("alert")).toHaveText("This daemon does not export sessions.");
  await tideline.screenshot("export-refused");
  // The refused request is the page's own 404, not an error of the page.
  expect(consoleErrors.filter((line) => !line.includes("404"))).toEqual([]);
});
