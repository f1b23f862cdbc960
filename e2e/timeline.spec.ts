// The session view against the real daemon and demo agent: the timeline and the
// compaction row, as a person would use them.
import { expect, test } from "./fixtures";

test("when the welcome session opens, then its compaction row and summary are there", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/w\/[^/]+\/s\/[^/]+$/);
  // `/` opens the newest session: on a daemon an earlier spec of this worker used, that is
  // one of its sessions, not the welcome one.
  await page.getByRole("link", { name: /Welcome to Tideline/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome to Tideline");
  const row = tideline.timeline.getByRole("status", { name: "Context compacted" });
  // On a fresh daemon the welcome session is still being recorded: its compaction comes
  // after a few scripted turns, and the turns after it can leave it above the virtual window.
  await expect(
    tideline.rail.getByRole("list", { name: "Turns" }).getByText("Turn 8", { exact: true }),
  ).toBeVisible({ timeout: 45_000 });
  await tideline.scrollUpTo(row);
  await expect(row).toBeVisible();

  const disclosure = page.getByRole("button", { name: /^Summary of the compaction at / });
  await expect(disclosure).toHaveAttribute("aria-expanded", "false");
  await disclosure.focus();
  await page.keyboard.press("Enter");
  await expect(disclosure).toHaveAttribute("aria-expanded", "true");
  const summary = page.getByRole("region", { name: /^Summary of the compaction at / });
  await expect(summary.getByRole("heading").first()).toBeVisible();
  // Agent headings sit below the page's own: one h1, the session's name.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome to Tideline");
  await expect(summary.getByRole("button", { name: "Copy" })).toBeVisible();
  await tideline.screenshot("timeline-welcome-summary-open");
  expect(consoleErrors).toEqual([]);
});

test("when a prompt is sent, then the question and the streamed reply appear", async ({
  tideline,
  consoleErrors,
}) => {
  const session = await tideline.createSession("Prompting");
  await tideline.open(session);
  await tideline.send("Explain the ledger in two lines");
  // The demo agent quotes the prompt back, so the text appears in the question and the reply.
  await expect(
    tideline.timeline.getByText("Explain the ledger in two lines").first(),
  ).toBeVisible();
  await expect(tideline.timeline.getByText("Agent").first()).toBeVisible();
  await tideline.waitIdle(session);
  await expect(tideline.composer).toHaveValue("");
  expect(consoleErrors).toEqual([]);
});

test("when /compact runs, then one row goes from in progress to completed and opens its summary", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  // A 12 s compaction and two four-variant axe passes over a row that now also holds its audit.
  test.slow();
  const session = await tideline.createSession("Compacting");
  await tideline.open(session);
  await tideline.send("Plan the context meter");
  await tideline.waitIdle(session);
  // Long enough to photograph and audit the in-progress row in all four variants.
  await tideline.send("/demo slow 12");
  await tideline.waitIdle(session);
  await tideline.send("/compact");

  const inProgress = tideline.timeline.getByRole("status", { name: "Compacting context…" });
  await expect(inProgress).toBeVisible();
  await expect(tideline.timeline.getByText(/^\d+ s$/).first()).toBeVisible();
  await tideline.screenshot("timeline-compacting");

  const done = tideline.timeline.getByRole("status", { name: "Context compacted" });
  await expect(done).toBeVisible({ timeout: 30_000 });
  await expect(inProgress).toHaveCount(0);
  await page.getByRole("button", { name: /^Summary of the compaction at / }).click();
  const summary = page.getByRole("region", { name: /^Summary of the compaction at / });
  await expect(summary).toContainText("Plan the context meter");
  await tideline.screenshot("timeline-compacted-summary");
  expect(consoleErrors).toEqual([]);
});

test("when the compaction fails, then the row is an alert carrying the agent's error", async ({
  tideline,
}) => {
  const session = await tideline.createSession("Failing");
  await tideline.open(session);
  await tideline.send("/demo fail");
  await tideline.waitIdle(session);
  await tideline.send("/compact");
  const failed = tideline.timeline.getByRole("alert", {
    name: "Context compaction failed — context too small",
  });
  await expect(failed).toBeVisible({ timeout: 20_000 });
  await tideline.screenshot("timeline-failed");
});

test("when Stop is pressed during a slow compaction, then the row reads cancelled", async ({
  tideline,
}) => {
  const session = await tideline.createSession("Cancelling");
  await tideline.open(session);
  await tideline.send("/demo slow 30");
  await tideline.waitIdle(session);
  await tideline.send("/compact");
  await expect(
    tideline.timeline.getByRole("status", { name: "Compacting context…" }),
  ).toBeVisible();
  await tideline.stopButton.click();
  await expect(
    tideline.timeline.getByRole("status", { name: "Context compaction cancelled" }),
  ).toBeVisible({ timeout: 15_000 });
  await expect(tideline.stopButton).toHaveCount(0);
  await tideline.screenshot("timeline-cancelled");
});

test("when the agent passes through a vendor status, then it is recorded as its own snapshot and the one row ends completed", async ({
  tideline,
}) => {
  const session = await tideline.createSession("Pausing");
  await tideline.open(session);
  await tideline.send("/demo slow 4");
  await tideline.waitIdle(session);
  // `paused` queues after `slow`, so this compaction is slow and the next one pauses.
  await tideline.send("/compact");
  await expect(tideline.timeline.getByRole("status", { name: "Context compacted" })).toBeVisible({
    timeout: 20_000,
  });
  await tideline.waitIdle(session);
  await tideline.send("/demo paused");
  await tideline.waitIdle(session);
  await tideline.send("/compact");
  // At --speed 0 the `_paused` status lasts only an instant, too short to look at: the ledger
  // shows it was its own snapshot, and the row ends completed — one row per id. That a vendor
  // status is drawn verbatim and unfinished is compaction-row.test.tsx's job.
  await expect(tideline.timeline.getByRole("status", { name: "Context compacted" })).toHaveCount(
    2,
    {
      timeout: 20_000,
    },
  );
  const events = await tideline.api<{ events: { content: { status?: string } }[] }>(
    "GET",
    `/api/workspaces/${session.workspace_id}/sessions/${session.id}/events?type=compaction`,
  );
  expect(events.body.events.map((event) => event.content.status)).toContain("_paused");
});

test("when a completed compaction is corrected to failed, then the same row turns into the failure", async ({
  tideline,
}) => {
  const session = await tideline.createSession("Correcting");
  await tideline.open(session);
  await tideline.send("/demo correct");
  await tideline.waitIdle(session);
  await tideline.send("/compact");
  await expect(
    tideline.timeline.getByRole("alert", {
      name: /^Context compaction failed — Compaction rolled back/,
    }),
  ).toBeVisible({ timeout: 20_000 });
  await expect(tideline.timeline.getByRole("status", { name: "Context compacted" })).toHaveCount(0);
});

test("when the page reloads mid-compaction, then the same single row is there and completes", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const session = await tideline.createSession("Reloading");
  await tideline.open(session);
  await tideline.send("/demo slow 4");
  await tideline.waitIdle(session);
  await tideline.send("/compact");
  const inProgress = tideline.timeline.getByRole("status", { name: "Compacting context…" });
  await expect(inProgress).toBeVisible();
  await page.reload();
  await expect(inProgress).toHaveCount(1);
  const done = tideline.timeline.getByRole("status", { name: "Context compacted" });
  await expect(done).toHaveCount(1, { timeout: 20_000 });
  await expect(inProgress).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test("when a draft is typed and the page reloads, then the draft is still there", async ({
  page,
  tideline,
}) => {
  const session = await tideline.createSession("Drafting");
  await tideline.open(session);
  await tideline.composer.fill("half a thought about the meter");
  await page.reload();
  await expect(tideline.composer).toHaveValue("half a thought about the meter");
});

test("when the daemon restarts, then the stream reconnects and nothing is lost or duplicated", async ({
  page,
  tideline,
  daemon,
}) => {
  const session = await tideline.createSession("Restarting");
  await tideline.open(session);
  await tideline.send("First words before the restart");
  await tideline.waitIdle(session);
  // The user's message, and the reply quoting it twice (its heading line and its decision).
  const said = tideline.timeline.getByText("First words before the restart");
  const before = 3;
  await expect(said).toHaveCount(before);

  await daemon.restart("SIGKILL");
  // "Reconnecting…" may show for a moment only: a warm daemon is back before a slow runner
  // looks. What counts is that it goes and the stream is live again on the new process.
  await expect(page.getByText("Reconnecting…")).toHaveCount(0, { timeout: 20_000 });
  await expect(tideline.timeline.getByText("Session stopped — daemon restarted")).toBeVisible();
  await expect(said).toHaveCount(before);

  // No "Start session": a prompt resumes it (session/load) without re-recording the past.
  await expect(tideline.resumeNotice).toBeVisible();
  await expect(page.getByRole("button", { name: /start/i })).toHaveCount(0);
  await tideline.send("And after the restart?");
  await tideline.waitIdle(session);
  await expect(tideline.timeline.getByText("And after the restart?").first()).toBeVisible();
  await expect(said).toHaveCount(before);
  await tideline.screenshot("timeline-after-restart");
});
