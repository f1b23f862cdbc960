// Playwright fixtures: one real daemon per worker (per spec file when its options differ),
// a page that fails the test on any console error, and the Tideline page object.
import { test as base, expect } from "@playwright/test";
import { FIRST_SCREEN_ID } from "../src/contract/first-paint";
import { describeFindings } from "./a11y";
import { type Daemon, demoAgentFlag, removeDataDir, startDaemon } from "./daemon";
import { TidelinePage } from "./tideline-page";

type WorkerFixtures = {
  /** Extra daemon flags; by default the demo agent runs with no delays. */
  daemonArgs: string[];
  daemon: Daemon;
};

type TestFixtures = {
  consoleErrors: string[];
  tideline: TidelinePage;
  /** On a failure, the daemon's log goes into the report beside the screenshot and trace. */
  daemonLogOnFailure: undefined;
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  daemonArgs: [["--agent", demoAgentFlag()], { scope: "worker", option: true }],
  daemon: [
    async ({ daemonArgs }, use) => {
      const daemon = await startDaemon(daemonArgs);
      await use(daemon);
      await daemon.stop();
      removeDataDir(daemon);
    },
    { scope: "worker" },
  ],
  baseURL: async ({ daemon }, use) => {
    await use(daemon.url);
  },
  // A session link's page opens with the daemon's picture of its newest entries over the
  // SPA (ADR 0217), text the SPA's own rows repeat. Every navigation waits until the SPA has
  // taken over, as a person's first action finds it; first-paint.spec.ts watches the picture.
  page: async ({ page }, use) => {
    const settled = async <T>(navigated: Promise<T>): Promise<T> => {
      const response = await navigated;
      await page.locator(`#${FIRST_SCREEN_ID}`).waitFor({ state: "detached", timeout: 10_000 });
      return response;
    };
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = (...args) => settled(goto(...args));
    page.reload = (...args) => settled(reload(...args));
    await use(page);
  },
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      // A failed load names its URL, so a spec can tell an expected 404 (a CompozyOS
      // without a Tideline extension) from a real failure.
      const text = message.text();
      const url = message.location().url;
      errors.push(text.startsWith("Failed to load resource") && url ? `${text} ${url}` : text);
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await use(errors);
  },
  // The accessibility gate: every state a test named (tideline.screenshot / checkA11y) and
  // the state it ends in are audited by axe in both schemes at 1280 and 360 px; any
  // violation fails the test.
  tideline: async ({ page, daemon }, use, testInfo) => {
    const tideline = new TidelinePage(page, daemon);
    await use(tideline);
    if (testInfo.status === testInfo.expectedStatus && page.url().startsWith("http")) {
      await tideline.checkA11y("final state");
    }
    if (tideline.findings.length > 0) {
      const report = describeFindings(tideline.findings);
      await testInfo.attach("axe-violations.txt", { body: report, contentType: "text/plain" });
      throw new Error(`axe found ${tideline.findings.length} violation(s):\n${report}`);
    }
  },
  daemonLogOnFailure: [
    async ({ daemon }, use, testInfo) => {
      await use(undefined);
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach("daemon.log", { body: daemon.log(), contentType: "text/plain" });
      }
    },
    { auto: true },
  ],
});

export { expect };
