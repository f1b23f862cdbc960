// CompozyOS-shaped answers in real Chromium: the SPA (served by the real daemon) is pointed
// at payloads written from CompozyOS's builders (src/testing/compozy-examples.ts) by
// answering its /api requests in the browser, the way a CompozyOS daemon would. Every part
// type renders as itself, the stream of a stopped session is not reconnected to, and an
// older daemon's usage (no context, no /usage/turns) degrades the meter. Screenshots in
// light and dark, at 1280 and 360 px wide, go to test-results/screens/.
import type { Page, Route } from "@playwright/test";
import * as compozy from "../src/testing/compozy-examples";
import { expect, test } from "./fixtures";

const base = `/api/workspaces/${compozy.WORKSPACE_ID}/sessions/${compozy.SESSION_ID}`;
const stoppedSession = { ...compozy.session, state: "stopped", activity: null };

type Daemon = "current" | "older";

function sse(...frames: [string, unknown][]): string {
  return frames
    .map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
    .join("");
}

/** Answers the SPA as a CompozyOS daemon would; counts stream connections. */
/** Answers the page as CompozyOS; the streams it opened and how often it read the session. */
async function actAsCompozy(page: Page, daemon: Daemon) {
  const streams: string[] = [];
  let sessionReads = 0;
  const json = (route: Route, body: unknown, status = 200) =>
    route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body) });
  await page.route("**/api/**", async (route) => {
    const url = new URL(route.request().url());
    const path = url.pathname;
    if (path === "/api/workspaces") return json(route, compozy.workspaceList);
    if (path === "/api/sessions") {
      return json(route, { ...compozy.sessionList, sessions: [stoppedSession] });
    }
    if (path === base) {
      sessionReads += 1;
      return json(route, { session: stoppedSession });
    }
    if (path === "/api/sessions/catalog-stream") {
      // CompozyOS has it (its catalog changes); nothing changes while the test runs.
      return route.fulfill({ status: 200, contentType: "text/event-stream", body: ": ready\n\n" });
    }
    if (path === `${base}/transcript`) {
      return json(route, {
        ...compozy.transcriptPage,
        has_older: false,
        entries: [...compozy.transcriptPage.entries, compozy.entryNullParts],
      });
    }
    if (path === `${base}/stream`) {
      streams.push(url.search);
      // A stopped session: the snapshot, then session_stopped, then CompozyOS closes.
      return route.fulfill({
        status: 200,
        contentType: "text/event-stream",
        body: sse(
          ["transcript_snapshot", { ...compozy.transcriptSnapshot, entries: [] }],
          ["session_stopped", compozy.sessionStopped],
        ),
      });
    }
    if (path === `${base}/commands`) return json(route, compozy.sessionCommands);
    // CompozyOS's busy-input queue (`SessionInputsResponse`): nothing waits in a stopped session.
    if (path === `${base}/prompt/queue`) return json(route, { inputs: [] });
    if (path === `${base}/usage`) {
      return json(route, daemon === "older" ? compozy.usageWithoutContext : compozy.usage);
    }
    if (path === `${base}/usage/turns`) {
      if (daemon === "older") {
        return route.fulfill({
          status: 404,
          contentType: "text/plain",
          body: "404 page not found",
        });
      }
      return json(route, compozy.usageTurns);
    }
    return json(route, { error: "not found", code: "not_found" }, 404);
  });
  return { streams, sessionReads: () => sessionReads };
}

const VARIANTS = [
  { width: 1280, height: 900, scheme: "light" },
  { width: 1280, height: 900, scheme: "dark" },
  { width: 360, height: 780, scheme: "light" },
  { width: 360, height: 780, scheme: "dark" },
] as const;

for (const variant of VARIANTS) {
  const name = `${variant.width}-${variant.scheme}`;

  // `tideline`: its teardown runs the accessibility gate over the state each test ends in.
  test(`CompozyOS parts render as themselves (${name})`, async ({
    page,
    consoleErrors,
    tideline: _gate,
  }) => {
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await page.emulateMedia({ colorScheme: variant.scheme });
    const { streams, sessionReads } = await actAsCompozy(page, "current");
    await page.goto(`/w/${compozy.WORKSPACE_ID}/s/${compozy.SESSION_ID}`);
    const timeline = page.getByRole("region", { name: "Transcript" });
    await expect(timeline.getByText("Migrate the billing service")).toBeVisible();
    await expect(timeline.getByText(/Unsupported item/)).toHaveCount(0);
    await expect(timeline.getByText("schema.png")).toBeVisible();
    await expect(timeline.getByRole("button", { name: /Tool call: execute/ })).toBeVisible();
    await expect(timeline.getByRole("button", { name: /mcp__linear__create_issue/ })).toBeVisible();
    await expect(timeline.getByText("Allowed once", { exact: true })).toBeVisible();
    await expect(timeline.getByText("Run go test ./...")).toBeVisible();
    await expect(
      page.getByText("This session is stopped. Sending a message resumes it."),
    ).toBeVisible();
    await page.screenshot({ path: `test-results/screens/compozy-parts-${name}.png` });
    // The stopped session's stream is opened once and never again: by the next re-read of
    // the stopped session (every 3 s), a reconnect loop (0.25–0.5 s) would have reopened it.
    const reads = sessionReads();
    await expect.poll(sessionReads, { timeout: 10_000 }).toBeGreaterThan(reads);
    expect(streams).toHaveLength(1);
    expect(streams[0]).toContain("frames=transcript");
    // CompozyOS has neither pins nor the audit: their 404s are expected (the SPA hides
    // "Keep this" and computes the audit itself); nothing else may fail.
    const expected = new RegExp(
      `^Failed to load resource: .* 404 .*${base}/(pins|compactions/[^/]+/audit)$`,
    );
    expect(consoleErrors.filter((error) => !expected.test(error))).toEqual([]);
  });

  test(`an older CompozyOS degrades the meter (${name})`, async ({ page, tideline: _gate }) => {
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await page.emulateMedia({ colorScheme: variant.scheme });
    await actAsCompozy(page, "older");
    await page.goto(`/w/${compozy.WORKSPACE_ID}/s/${compozy.SESSION_ID}`);
    // Narrow screens keep the rail in a sheet opened from the header's meter.
    if (variant.width < 1024) await page.getByRole("button", { name: /^Context/ }).click();
    const rail = page.getByRole("complementary", { name: "Context" });
    // No figure to expose: a labelled status in the meter's place, never a meter at 0.
    const meter = rail.getByRole("status", { name: "Context window" });
    await expect(meter).toContainText("No context reading");
    await expect(rail.getByRole("meter")).toHaveCount(0);
    await expect(rail.getByText(/reports no context usage/)).toBeVisible();
    await expect(rail.getByRole("heading", { name: "Turns" })).toHaveCount(0);
    await expect(rail.getByRole("button", { name: "Compact now" })).toHaveCount(0);
    await meter.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screens/compozy-meter-degraded-${name}.png` });
  });
}
