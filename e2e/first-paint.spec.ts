// The first paint of a session link (ADR 0210): the daemon's page names the SPA's first two
// reads as preloads, and the SPA's own fetches are answered by them, not sent again.
import type { Request } from "@playwright/test";
import { expect, test } from "./fixtures";

test("when a session link is opened, then its detail and first transcript page are each requested once, by the page's preloads", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const session = await tideline.createSession("Preloaded");
  const base = `/api/workspaces/${session.workspace_id}/sessions/${session.id}`;
  const requests: Request[] = [];
  page.on("request", (request) => requests.push(request));
  const warnings: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "warning") warnings.push(message.text());
  });

  const response = await page.goto(`/w/${session.workspace_id}/s/${session.id}`);
  const html = (await response?.text()) ?? "";
  expect(html).toContain(`<link rel="preload" as="fetch" crossorigin="anonymous" href="${base}">`);
  expect(html).toContain(`href="${base}/transcript?limit=200"`);
  await expect(page.getByRole("heading", { name: "Transcript" })).toBeVisible();
  await expect(page.getByText("Nothing here yet.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Preloaded" })).toBeVisible();

  // Until the session stream opens, each read went out once, as the page's preload (the
  // parser's request, type "other"), and the SPA's own fetch took its response: a fetch
  // that did not match would show as a second request of type "fetch". (The stream's
  // first frames make the SPA re-read the detail afterwards, on purpose.)
  const streamAt = requests.findIndex((request) => request.url().includes(`${base}/stream`));
  expect(streamAt).toBeGreaterThan(0);
  const early = requests.slice(0, streamAt);
  for (const path of [base, `${base}/transcript`]) {
    const reads = early.filter((request) => new URL(request.url()).pathname === path);
    expect(reads.map((request) => request.resourceType())).toEqual(["other"]);
  }
  expect(requests.filter((r) => r.url().includes(`${base}/transcript`))).toHaveLength(1);
  // Chromium warns when a fetch did not match a preload it had.
  expect(warnings.filter((text) => /preload/i.test(text))).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test("when a reply has a fenced code block, then it is highlighted after the first paint, and Copy copies the code and the message", async ({
  page,
  context,
  tideline,
  consoleErrors,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const session = await tideline.createSession("Highlighted");
  await tideline.open(session);
  await tideline.send("/demo markdown");
  await tideline.waitIdle(session);
  const block = tideline.timeline.locator(".tl-code").first();
  // The highlighter's chunk arrives after the first paint; then the tokens are spans.
  await expect(block.locator("pre code .hljs-keyword").first()).toHaveText("const");
  await expect(block.locator("pre code .hljs-string").first()).toHaveText('"completed"');
  await expect(block.locator("pre code")).toHaveText(
    'const status: string = "completed";\nconsole.log(status);',
  );
  await block.getByRole("button", { name: "Copy code" }).click();
  await expect(block.getByRole("status")).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    'const status: string = "completed";\nconsole.log(status);',
  );
  const reply = tideline.timeline.getByRole("button", { name: "Copy message" }).last();
  await reply.click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(
    "# Markdown showcase",
  );
  await block.scrollIntoViewIfNeeded();
  await tideline.screenshot("highlighted-code");
  expect(consoleErrors).toEqual([]);
});

test("when a session link is opened, then its newest entries are painted from the page itself, and the SPA's rows take their place in the same spot", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const session = await tideline.createSession("Drawn first");
  await tideline.open(session);
  await tideline.send("/demo markdown");
  await tideline.waitIdle(session);
  const link = `/w/${session.workspace_id}/s/${session.id}`;

  // Where each row of the picture was, and where the SPA's rows were when it went away.
  await page.addInitScript(() => {
    const w = window as unknown as { __screen?: { rows: string[]; spaRowsAtRemoval: number } };
    const observer = new MutationObserver(() => {
      const drawn = document.getElementById("first-screen");
      if (drawn && w.__screen === undefined) {
        w.__screen = { rows: [], spaRowsAtRemoval: -1 };
      }
      if (w.__screen && w.__screen.rows.length === 0 && document.readyState !== "loading") {
        w.__screen.rows = [...document.querySelectorAll("[data-first-screen-entry]")].map(
          (row) => row.textContent ?? "",
        );
      }
      if (w.__screen && !drawn && w.__screen.spaRowsAtRemoval < 0) {
        w.__screen.spaRowsAtRemoval = document.querySelectorAll(
          '[aria-label="Transcript"] [data-index]',
        ).length;
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  await page.goto(link);
  const seen = await page.evaluate(
    () =>
      (window as unknown as { __screen?: { rows: string[]; spaRowsAtRemoval: number } }).__screen,
  );
  expect(seen?.rows.some((row) => row.includes("Markdown showcase"))).toBe(true);
  // It went away only once the SPA's own rows were there under it.
  expect(seen?.spaRowsAtRemoval).toBeGreaterThan(0);
  await expect(tideline.timeline.getByText("Markdown showcase").first()).toBeVisible();
  expect(await page.locator("#first-screen").count()).toBe(0);

  // With no script at all, the picture is what the page shows: the same reply, readable,
  // and nothing in it for a keyboard or a screen reader.
  await page.route("**/assets/*.js", (route) => route.abort());
  // (Not page.goto: the fixture's waits for the SPA to take over, which it cannot here.)
  await page.evaluate(() => window.location.reload());
  const drawn = page.locator("#first-screen");
  await expect(drawn).toBeVisible();
  await expect(drawn).toHaveAttribute("aria-hidden", "true");
  await expect(drawn.getByText("Markdown showcase").first()).toBeVisible();
  expect(
    await drawn
      .locator("a, button:not([disabled]), input:not([disabled]), textarea, [tabindex='0']")
      .count(),
  ).toBe(0);
  await tideline.screenshot("first-screen-before-script");
  // The aborted scripts are this test's own doing.
  expect(consoleErrors.filter((error) => !error.includes("/assets/"))).toEqual([]);
});

test("when a session link with entries is opened, then its stream resumes after the preloaded page instead of sending the same entries again", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const session = await tideline.createSession("Resumed after the page");
  await tideline.open(session);
  await tideline.send("/demo markdown");
  await tideline.waitIdle(session);

  const { urls: streams, frames } = await tideline.recordStreams();
  const events = () => frames.map((frame) => frame.event);
  await page.goto(`/w/${session.workspace_id}/s/${session.id}`);
  await expect(tideline.timeline.getByText("Markdown showcase").first()).toBeVisible();
  // The daemon says the command list after the first frames: those have all arrived.
  await expect.poll(() => events().includes("session_commands_changed")).toBe(true);
  expect(streams).toHaveLength(1);
  expect(new URL(streams[0] ?? "").searchParams.get("after_sequence")).toMatch(/^[1-9]\d*$/);
  expect(events()).toContain("transcript_delta");
  expect(events()).not.toContain("transcript_snapshot");
  expect(consoleErrors).toEqual([]);
});
