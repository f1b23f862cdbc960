// Live delta latency (quality.md), end to end.
// Latency: from the agent writing a frame (the flood agent stamps its wall-clock time into
// a tool call's title) to that row appearing in the DOM of a real Chromium page, with 20
// streams open on the session (the page's own and 19 more readers). Floor: the same frame's
// trip to a bare SSE reader in this process (what the network path alone costs).
// Memory is daemon-memory.bench.ts.
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/chromium";
import { openSse } from "../server/testing/sse-reader";
import { createSession, prompt, startFloodDaemon, untilIdle } from "./live-daemon";
import { percentile, printFigure } from "./report";

const STREAMS = 20;
const STAMPS = 60;

async function liveLatency() {
  const daemon = await startFloodDaemon();
  try {
    const session = await createSession(daemon.url, join(daemon.dataDir, "workspace"));
    await prompt(session, "hello");
    await untilIdle(session);

    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // tsx keeps function names with a `__name` helper the page does not have.
    await page.addInitScript("globalThis.__name = (target) => target;");
    await page.addInitScript(() => {
      const w = window as unknown as { __seen: Record<string, number> };
      w.__seen = {};
      new MutationObserver(() => {
        const transcript = document.querySelector('[aria-label="Transcript"]');
        for (const match of (transcript?.textContent ?? "").matchAll(/stamp (\d+) ([\d.]+)/g)) {
          const key = `${match[1]} ${match[2]}`;
          w.__seen[key] ??= performance.timeOrigin + performance.now();
        }
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.goto(`${daemon.url}/w/${session.workspaceId}/s/${session.sessionId}`);
    await page.getByText("ok").first().waitFor({ timeout: 30_000 });

    const readers = await Promise.all(
      Array.from({ length: STREAMS - 1 }, () => openSse(`${session.path}/stream`)),
    );
    await Promise.all(readers.map((r) => r.waitFor((e) => e.event === "transcript_snapshot")));

    for (let i = 0; i < STAMPS; i += 1) {
      await prompt(session, `stamp ${i}`);
      await page.waitForFunction(
        (n) =>
          Object.keys((window as unknown as { __seen: Record<string, number> }).__seen).some(
            (key) => key.startsWith(`${n} `),
          ),
        i,
        { timeout: 15_000 },
      );
      await untilIdle(session);
    }
    const seen = await page.evaluate(
      () => (window as unknown as { __seen: Record<string, number> }).__seen,
    );
    const browserMs = Object.entries(seen).map(([key, at]) => at - Number(key.split(" ")[1]));

    // The floor: the same frames' arrival at a bare reader in this process.
    const floorMs: number[] = [];
    for (const reader of readers) {
      for (const event of reader.events) {
        for (const match of event.data.matchAll(/stamp (\d+) ([\d.]+)/g)) {
          floorMs.push(performance.timeOrigin + event.receivedAt - Number(match[2]));
        }
      }
      reader.close();
    }
    await browser.close();
    if (browserMs.length !== STAMPS) throw new Error(`saw ${browserMs.length} of ${STAMPS} stamps`);
    return { browserMs, floorMs };
  } finally {
    await daemon.stop();
  }
}

const { browserMs, floorMs } = await liveLatency();
for (const p of [50, 95]) {
  printFigure({
    name: `live delta, agent frame → row in the browser's DOM, ${STREAMS} streams, p${p}`,
    value: percentile(browserMs, p),
    unit: "ms",
    budget: 100,
    kind: "max",
    baseline: { name: `frame → bare SSE reader p${p}`, value: percentile(floorMs, p) },
  });
}
