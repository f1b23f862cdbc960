// Upstream mode end to end: a reference daemon with the demo agent owns the sessions; a
// second Tideline daemon started with `--upstream` serves the SPA and forwards /api to it.
// Chromium talks only to the second one.
import { type Daemon, removeDataDir, startUpstreamDaemon } from "./daemon";
import { test as base, expect } from "./fixtures";

const test = base.extend<object, { upstreamMode: Daemon }>({
  upstreamMode: [
    async ({ daemon }, use) => {
      const proxy = await startUpstreamDaemon(daemon);
      await use(proxy);
      await proxy.stop();
      removeDataDir(proxy);
    },
    { scope: "worker" },
  ],
  baseURL: async ({ upstreamMode }, use) => {
    await use(upstreamMode.url);
  },
});

test("when the SPA is opened through upstream mode, then it shows the other daemon's sessions, timeline and meter, and Compact now works through the proxy", async ({
  page,
  tideline,
  daemon,
  upstreamMode,
  consoleErrors,
}) => {
  expect(upstreamMode.url).not.toBe(daemon.url);
  expect(upstreamMode.log()).toContain(`forwarding /api to ${daemon.url}`);
  // The session is made on the reference daemon directly: upstream mode has none of its own.
  const session = await tideline.createSession("Seen through the proxy");

  const origins = new Set<string>();
  page.on("request", (request) => origins.add(new URL(request.url()).origin));
  const shell = await page.goto("/");
  expect(shell?.headers()["content-security-policy"]).toContain("default-src 'self'");
  const sessions = page.getByRole("navigation", { name: "Sessions" });
  await expect(sessions.getByRole("link", { name: /Seen through the proxy/ })).toBeVisible();
  await expect(sessions.getByRole("link", { name: /Welcome to Tideline/ })).toBeVisible();

  await sessions.getByRole("link", { name: /Seen through the proxy/ }).click();
  await expect(tideline.timeline).toBeVisible();
  // The prompt goes out through the proxy; the reply comes back over the proxied stream.
  await tideline.send("Sketch the usage projection");
  await tideline.waitIdle(session);
  await expect(tideline.timeline.getByText(/^Here is how I would approach/)).toBeVisible();
  await expect(tideline.meter).toHaveAttribute("aria-valuetext", /% used/);

  await expect(tideline.compactNow).toBeEnabled();
  await tideline.compactNow.click();
  await expect(tideline.timeline.getByRole("status", { name: "Context compacted" })).toBeVisible({
    timeout: 20_000,
  });
  await tideline.waitIdle(session);
  await tideline.screenshot("upstream-mode");
  // Chromium never talked to the reference daemon itself.
  expect([...origins]).toEqual([upstreamMode.url]);
  expect(consoleErrors).toEqual([]);
});
