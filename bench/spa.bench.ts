// The SPA's budgets (docs/quality.md), measured in Debian's Chromium against the real daemon:
// initial JavaScript (gzip); first entries of a 10,000-entry session painted from navigation
// (median of 5 cold loads, against a bare page that fetches the same first page and prints
// it: the floor), both the daemon's first screen (ADR 0217) and the SPA's own rows under it;
// after the transcript arrives, the DOM size of the timeline; and scrolling it top to bottom
// (the longest main-thread task). The session is seeded straight into a ledger file through
// the recorder, exactly as the agent host would have written it.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { type Browser, chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/chromium";
import { startDaemon } from "../e2e/daemon";
import { percentile, printFigure } from "./report";
import { seedSession } from "./seed-session";

const ROOT = resolve(import.meta.dirname, "..");

function initialJavaScriptKb(): number {
  const dist = join(ROOT, "dist");
  if (!existsSync(join(dist, "index.html"))) {
    execFileSync("npx", ["vite", "build", "--logLevel", "error"], { cwd: ROOT, stdio: "inherit" });
  }
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  let bytes = 0;
  for (const script of scripts) bytes += gzipSync(readFileSync(join(dist, script ?? ""))).length;
  return bytes / 1024;
}

const COLD_LOADS = 5;

/** The bare page: fetch the same first page, print each entry's text, note the frame. */
const FLOOR_HTML = `<!doctype html><html><body><pre id="out"></pre><script>
const started = performance.now();
fetch(location.search.slice(1)).then((r) => r.json()).then((page) => {
  document.getElementById("out").textContent = page.entries
    .map((e) => e.message.parts.map((p) => p.text ?? p.type).join(" ")).join("\\n");
  requestAnimationFrame(() => { window.__firstEntryAt = performance.now(); });
});
</script></body></html>`;

type ColdLoad = {
  /** The first entries painted: the daemon's first screen (ADR 0217) or the SPA's own rows. */
  firstEntries: number;
  /** The SPA's own rows painted (the floor page has none: its entries are its rows). */
  spaRows: number;
};

/** First entries painted, from navigation, in a fresh context (cold HTTP cache) each time. */
async function coldFirstPaints(
  browser: Browser,
  url: string,
  options: { floor?: string } = {},
): Promise<ColdLoad[]> {
  const samples: ColdLoad[] = [];
  for (let load = 0; load < COLD_LOADS; load += 1) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    if (options.floor !== undefined) {
      await page.route(`${url}**`, (route) =>
        route.fulfill({ status: 200, contentType: "text/html", body: FLOOR_HTML }),
      );
    } else {
      // tsx keeps function names with a `__name` helper the page does not have.
      await page.addInitScript("globalThis.__name = (target) => target;");
      await page.addInitScript(() => {
        const w = window as unknown as { __firstEntryAt?: number; __spaRowsAt?: number };
        const nextFrame = (set: (at: number) => void) =>
          requestAnimationFrame(() => set(performance.now()));
        const observer = new MutationObserver(() => {
          if (
            w.__firstEntryAt === undefined &&
            document.querySelector("[data-first-screen-entry]")
          ) {
            nextFrame((at) => {
              w.__firstEntryAt ??= at;
            });
          }
          if (document.querySelector('[aria-label="Transcript"] [data-index]')) {
            nextFrame((at) => {
              w.__firstEntryAt ??= at;
              w.__spaRowsAt ??= at;
            });
            observer.disconnect();
          }
        });
        observer.observe(document, { childList: true, subtree: true });
      });
    }
    await page.goto(options.floor === undefined ? url : `${url}?${options.floor}`);
    const done = options.floor === undefined ? "__spaRowsAt" : "__firstEntryAt";
    await page.waitForFunction(
      (name) => (window as unknown as Record<string, number | undefined>)[name] !== undefined,
      done,
      { timeout: 30_000 },
    );
    samples.push(
      await page.evaluate(() => {
        const w = window as unknown as { __firstEntryAt: number; __spaRowsAt?: number };
        return { firstEntries: w.__firstEntryAt, spaRows: w.__spaRowsAt ?? w.__firstEntryAt };
      }),
    );
    await context.close();
  }
  return samples;
}

async function measureBrowser(url: string): Promise<{
  firstPaintFromNavigationMs: number;
  firstPaintMs: number;
  domElements: number;
  up: { longestTaskMs: number; longTasks: number };
  down: { longestTaskMs: number; longTasks: number };
}> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // tsx keeps function names with a `__name` helper the page does not have.
  await page.addInitScript("globalThis.__name = (target) => target;");
  await page.addInitScript(() => {
    const w = window as unknown as {
      __longTasks: number[];
      __firstEntryAt?: number;
      __firstDataAt?: number;
    };
    w.__longTasks = [];
    // The first transcript data the app could use, whichever path brought it: the page
    // request's response or the stream's first snapshot event (resource timing has no
    // entry for a stream that never ends, so both are observed here).
    const dataArrived = () => {
      w.__firstDataAt ??= performance.now();
    };
    const originalFetch = window.fetch.bind(window);
    window.fetch = async (...args: Parameters<typeof fetch>) => {
      const response = await originalFetch(...args);
      const target = args[0] instanceof Request ? args[0].url : String(args[0]);
      if (/\/transcript(\?|$)/.test(target)) dataArrived();
      return response;
    };
    const OriginalEventSource = window.EventSource;
    window.EventSource = class extends OriginalEventSource {
      constructor(...args: ConstructorParameters<typeof EventSource>) {
        super(...args);
        this.addEventListener("transcript_snapshot", dataArrived);
      }
    };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
    }).observe({ type: "longtask", buffered: true });
    const observer = new MutationObserver(() => {
      if (
        w.__firstEntryAt === undefined &&
        document.querySelector('[aria-label="Transcript"] [data-index]')
      ) {
        // The entries are in the DOM; the next frame is when they are painted.
        requestAnimationFrame(() => {
          w.__firstEntryAt = performance.now();
        });
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  await page.goto(url);
  await page.waitForFunction(
    () => (window as unknown as { __firstEntryAt?: number }).__firstEntryAt !== undefined,
    undefined,
    { timeout: 30_000 },
  );
  const { firstPaintMs, firstPaintFromNavigationMs } = await page.evaluate(() => {
    const w = window as unknown as { __firstEntryAt: number; __firstDataAt?: number };
    // performance.now() counts from the navigation's start.
    return {
      firstPaintFromNavigationMs: w.__firstEntryAt,
      firstPaintMs: w.__firstEntryAt - (w.__firstDataAt ?? Number.NaN),
    };
  });
  const domElements = await page.evaluate(
    () => document.querySelectorAll('[aria-label="Transcript"] *').length,
  );

  // Scroll to the top (older pages load on the way), then all the way down again.
  await page.evaluate(() => {
    (window as unknown as { __longTasks: number[] }).__longTasks = [];
  });
  // The scroller is found with the DOM's own querySelector: a Playwright locator runs its
  // selector engine on the page's main thread for every step, which showed up as long
  // tasks of its own (tens of ms each) and drowned what the SPA itself does.
  const SCROLLER = '[aria-label="Transcript"]';
  const scroll = (direction: "up" | "down") =>
    page.evaluate(
      ([selector, way]) => {
        const el = document.querySelector(selector);
        if (el === null) throw new Error("no transcript scroller");
        if (way === "up") {
          el.scrollTop = Math.max(0, el.scrollTop - el.clientHeight);
          return el.scrollTop === 0;
        }
        el.scrollTop += el.clientHeight;
        return el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
      },
      [SCROLLER, direction] as const,
    );
  for (let step = 0; step < 400; step += 1) {
    const atTop = await scroll("up");
    await page.waitForTimeout(30);
    if (atTop && step % 10 === 9) {
      const done = await page.evaluate(
        () => !document.body.textContent?.includes("Loading earlier"),
      );
      if (
        done &&
        (await page.evaluate((s) => document.querySelector(s)?.scrollTop === 0, SCROLLER))
      )
        break;
    }
  }
  const takeTasks = () =>
    page.evaluate(() => {
      const w = window as unknown as { __longTasks: number[] };
      const tasks = w.__longTasks;
      w.__longTasks = [];
      return tasks;
    });
  const upTasks = await takeTasks();
  for (let step = 0; step < 2000; step += 1) {
    const atBottom = await scroll("down");
    await page.waitForTimeout(16);
    if (atBottom) break;
  }
  const downTasks = await takeTasks();
  await browser.close();
  return {
    firstPaintFromNavigationMs,
    firstPaintMs,
    domElements,
    up: { longestTaskMs: Math.max(0, ...upTasks), longTasks: upTasks.length },
    down: { longestTaskMs: Math.max(0, ...downTasks), longTasks: downTasks.length },
  };
}

printFigure({
  name: "SPA initial JavaScript (gzip)",
  value: initialJavaScriptKb(),
  unit: "KB",
  budget: 100,
  kind: "max",
});

const dataDir = mkdtempSync(join(tmpdir(), "tideline-spa-bench-"));
const workspace = join(dataDir, "workspace");
const seeded = seedSession(dataDir, workspace);
const daemon = await startDaemon(["--no-welcome", "--workspace", workspace], { dataDir });
try {
  const sessionUrl = `${daemon.url}/w/${seeded.workspaceId}/s/${seeded.sessionId}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const app = await coldFirstPaints(browser, sessionUrl);
  const floor = await coldFirstPaints(browser, `${daemon.url}/bench-floor`, {
    floor: `/api/workspaces/${seeded.workspaceId}/sessions/${seeded.sessionId}/transcript?limit=200`,
  });
  await browser.close();
  const list = (samples: number[]) => samples.map((ms) => ms.toFixed(0)).join(", ");
  const firstEntries = app.map((load) => load.firstEntries);
  const floorEntries = floor.map((load) => load.firstEntries);
  printFigure({
    name: `10,000-entry session: first entries painted from navigation (the daemon's first screen), cold cache, median of ${COLD_LOADS} (${list(firstEntries)} ms)`,
    value: percentile(firstEntries, 50),
    unit: "ms",
    budget: 350,
    kind: "max",
    baseline: {
      name: `the bare page that fetches the same page and prints it (${list(floorEntries)} ms)`,
      value: percentile(floorEntries, 50),
    },
  });
  const spaRows = app.map((load) => load.spaRows);
  printFigure({
    name: `the SPA's own rows painted under it, from navigation, median of ${COLD_LOADS} (${list(spaRows)} ms)`,
    value: percentile(spaRows, 50),
    unit: "ms",
    budget: 1000,
    kind: "max",
    baseline: { name: "the bare page", value: percentile(floorEntries, 50) },
  });
  const figures = await measureBrowser(sessionUrl);
  printFigure({
    name: "10,000-entry session: first entries painted, from the first transcript data",
    value: figures.firstPaintMs,
    unit: "ms",
    budget: 500,
    kind: "max",
  });
  printFigure({
    name: "10,000-entry session: DOM elements in the timeline",
    value: figures.domElements,
    unit: "elements",
    budget: 1500,
    kind: "max",
  });
  printFigure({
    name: `scrolling it up to the top while older pages load: longest main-thread task (${figures.up.longTasks} over 50 ms)`,
    value: figures.up.longestTaskMs,
    unit: "ms",
    budget: 50,
    kind: "max",
  });
  printFigure({
    name: `scrolling it back down to the bottom: longest main-thread task (${figures.down.longTasks} over 50 ms)`,
    value: figures.down.longestTaskMs,
    unit: "ms",
    budget: 50,
    kind: "max",
  });
} finally {
  await daemon.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
