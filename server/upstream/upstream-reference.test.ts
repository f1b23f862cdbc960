// Upstream mode in front of a second, real reference daemon (ledger, demo agent, its own
// bearer token): what the browser gets through the proxy is what the daemon says.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Session } from "../../src/contract/session";
import { startTestDaemon, type TestDaemon } from "../testing/daemon";
import { openSse } from "../testing/sse-reader";
import { startTestProxy, type TestProxy } from "../testing/upstream-server";

describe("upstream mode in front of a reference daemon", () => {
  let daemon: TestDaemon;
  let base: string;
  let proxy: TestProxy;
  let session: Session;

  beforeAll(async () => {
    daemon = await startTestDaemon({ keepaliveMs: 200 });
    base = await daemon.listen();
    session = await daemon.createActiveSession();
    proxy = await startTestProxy(base);
  });
  afterAll(async () => {
    await proxy.stop();
    await daemon.stop();
  });

  const direct = (path: string) => fetch(`${base}${path}`);
  const viaProxy = (path: string, init: RequestInit = {}) =>
    fetch(`${proxy.url}${path}`, {
      ...init,
      // What the SPA served by the proxy sends.
      headers: { Origin: proxy.url, "Sec-Fetch-Site": "same-origin", ...init.headers },
    });

  it("when the browser lists sessions and reads a transcript through the proxy, then it gets the daemon's answers byte for byte", async () => {
    for (const path of [
      "/api/workspaces",
      "/api/sessions",
      daemon.sessionPath(session.id),
      `${daemon.sessionPath(session.id)}/transcript`,
      `${daemon.sessionPath(session.id)}/usage`,
    ]) {
      const [proxied, original] = await Promise.all([viaProxy(path), direct(path)]);
      expect(proxied.status, path).toBe(original.status);
      expect(await proxied.text(), path).toBe(await original.text());
      expect(proxied.headers.get("content-type")).toBe(original.headers.get("content-type"));
    }
    const listed = (await (await viaProxy("/api/sessions")).json()) as { sessions: Session[] };
    expect(listed.sessions.map((s) => s.id)).toContain(session.id);
  });

  it("when the daemon has its own token, then --upstream-token is the bearer it needs, and without it its 401 comes back", async () => {
    const guarded = await startTestDaemon({ token: "reference-daemon-token" });
    const guardedBase = await guarded.listen();
    const bare = await startTestProxy(guardedBase);
    const withToken = await startTestProxy(guardedBase, {
      upstreamToken: "reference-daemon-token",
    });
    try {
      const refused = await fetch(`${bare.url}/api/sessions`);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ code: "unauthorized" });
      const admitted = await fetch(`${withToken.url}/api/workspaces`);
      expect(admitted.status).toBe(200);
      const original = await fetch(`${guardedBase}/api/workspaces`, {
        headers: { Authorization: "Bearer reference-daemon-token" },
      });
      expect(await admitted.text()).toBe(await original.text());
      // A stream request passes the daemon's token guard on the header the proxy adds
      // (404: no such session, rather than 401); no token rides in the URL.
      const sse = await openSse(
        `${withToken.url}/api/workspaces/${guarded.ws}/sessions/none/stream`,
      );
      expect(sse.status).toBe(404);
      sse.close();
    } finally {
      await bare.stop();
      await withToken.stop();
      await guarded.stop();
    }
  });

  it("when a prompt and a compaction are sent through the proxy, then the live stream through the proxy shows them, and leaving it unsubscribes at the daemon", async () => {
    const path = daemon.sessionPath(session.id);
    const sse = await openSse(`${proxy.url}${path}/stream`);
    expect(sse.status).toBe(200);
    await sse.waitFor((event) => event.event === "transcript_snapshot", 5000);
    expect(daemon.streams.subscriberCount(session.id)).toBe(1);

    const prompt = await viaProxy(`${path}/prompt`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        message: "Sketch the usage projection",
        message_id: "m-proxy",
        idempotency_key: "k-proxy",
      }),
    });
    expect(prompt.status).toBe(200);
    // The reply streams in while the turn runs: a delta arrives before the turn ends.
    await sse.waitFor((event) => event.event === "transcript_delta", 10_000);
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);

    const from = sse.events.length;
    const compact = await viaProxy(`${path}/compact`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(compact.status).toBe(202);
    await sse.waitFor(
      (event) => event.event === "transcript_delta" && event.data.includes('"compaction"'),
      10_000,
      from,
    );
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);

    sse.close();
    const deadline = Date.now() + 3000;
    while (daemon.streams.subscriberCount(session.id) > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(daemon.streams.subscriberCount(session.id)).toBe(0);
  });
});
