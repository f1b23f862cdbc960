// Upstream mode against what a foreign page can make a browser send: cross-site and
// same-site requests of every method (thirty `<img>` tags), a flood of streams, and bodies
// past the reference daemon's limit. Real proxy, real fake CompozyOS gateway, real HTTP.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../http/security";
import { type FakeCompozy, startFakeCompozy } from "../testing/fake-compozy";
import { startTestProxy, type TestProxy } from "../testing/upstream-server";
import { createMintBudget } from "./mint-budget";

const STREAM = "/api/workspaces/ws_1/sessions/ses_1/stream?frames=transcript";

describe("upstream mode and foreign pages", () => {
  let fake: FakeCompozy;
  let proxy: TestProxy;

  beforeAll(async () => {
    fake = await startFakeCompozy({ tier: "private", credential: "secret-credential" });
    proxy = await startTestProxy(fake.url, { upstreamToken: "secret-credential" });
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.minted.length = 0;
  });
  afterAll(async () => {
    await proxy.stop();
    await fake.stop();
  });

  it.each(["cross-site", "same-site", "Cross-Site"])(
    "when a request is marked Sec-Fetch-Site %s, then every method is refused 403 and nothing is forwarded or minted",
    async (site) => {
      for (const [method, path] of [
        ["GET", "/api/sessions"],
        ["GET", STREAM],
        ["HEAD", "/api/sessions"],
        ["POST", "/api/sessions"],
        ["DELETE", "/api/workspaces/ws_1/sessions/ses_1"],
      ] as const) {
        const response = await fetch(`${proxy.url}${path}`, {
          method,
          headers: {
            "Sec-Fetch-Site": site,
            ...(method === "POST" ? { "Content-Type": "application/json" } : {}),
          },
          ...(method === "POST" ? { body: "{}" } : {}),
        });
        expect(response.status, `${method} ${path}`).toBe(403);
      }
      expect(fake.requests).toEqual([]);
      expect(fake.minted).toEqual([]);
    },
  );

  it("when the SPA itself (same-origin) or a typed URL (none) asks, then it is forwarded", async () => {
    for (const site of ["same-origin", "none"]) {
      const response = await fetch(`${proxy.url}/api/sessions`, {
        headers: { "Sec-Fetch-Site": site },
      });
      expect(response.status).toBe(200);
    }
    expect(fake.requests).toHaveLength(2);
  });

  it("when thirty streams are opened at once, then at most the burst of tickets is minted and the rest get 429 with Retry-After", async () => {
    const aborts: AbortController[] = [];
    const statuses: number[] = [];
    const retryAfter: (string | null)[] = [];
    await Promise.all(
      Array.from({ length: 30 }, async () => {
        const abort = new AbortController();
        aborts.push(abort);
        const response = await fetch(`${proxy.url}${STREAM}`, {
          signal: abort.signal,
          headers: { "Sec-Fetch-Site": "same-origin" },
        });
        statuses.push(response.status);
        if (response.status === 429) {
          retryAfter.push(response.headers.get("retry-after"));
          expect(await response.json()).toMatchObject({ code: "rate_limited" });
        }
      }),
    );
    for (const abort of aborts) abort.abort();
    expect(fake.minted.length).toBeLessThanOrEqual(10);
    expect(statuses.filter((status) => status === 200)).toHaveLength(fake.minted.length);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(20);
    expect(retryAfter.every((value) => Number(value) >= 1)).toBe(true);
  });

  it("when a body is larger than the reference daemon accepts, then 413 and nothing is forwarded; just under the limit it goes through", async () => {
    const fits = await fetch(`${proxy.url}/api/sessions`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "x".repeat(MAX_BODY_BYTES - 100) }),
    });
    expect(fits.status).not.toBe(413);
    expect(fake.requests).toHaveLength(1);
    fake.requests.length = 0;
    const big = JSON.stringify({ message: "x".repeat(MAX_BODY_BYTES) });
    const refused = await fetch(`${proxy.url}/api/sessions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin" },
      body: big,
    });
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({ code: "payload_too_large" });
    // Chunked, with no length to check up front: refused once the limit is crossed (the
    // proxy may close the connection while the client is still sending).
    const chunked = await fetch(`${proxy.url}/api/sessions`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: new Blob([big]).stream(),
      duplex: "half",
    } as RequestInit).then(
      (response) => response.status,
      () => "closed",
    );
    expect([413, "closed"]).toContain(chunked);
    expect(fake.requests).toEqual([]);
  });
});

describe("the mint budget", () => {
  it("when the burst is spent, then one more mint is allowed per second, never more than the burst saved up", () => {
    let now = 0;
    const budget = createMintBudget({ burst: 3, perSecond: 1, now: () => now });
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(budget.retryAfterSeconds()).toBe(1);
    now = 1000;
    expect([budget.take(), budget.take()]).toEqual([true, false]);
    now = 60_000;
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });
});
