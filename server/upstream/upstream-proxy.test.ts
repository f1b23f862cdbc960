// Upstream mode against a fake CompozyOS that enforces CompozyOS's own rules: what arrives
// upstream, what comes back, streams, tickets and refusals.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ErrorEnvelope } from "../../src/contract/error";
import { type FakeCompozy, startFakeCompozy } from "../testing/fake-compozy";
import { openSse } from "../testing/sse-reader";
import { startTestProxy, type TestProxy } from "../testing/upstream-server";

const STREAM = "/api/workspaces/ws_1/sessions/s_1/stream";
const PROMPT = "/api/workspaces/ws_1/sessions/s_1/prompt";

type Echo = {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  bodyBytes: number;
};

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: over ${ms} ms`)), ms),
    ),
  ]);
}

describe("upstream mode, toward a CompozyOS local listener", () => {
  let fake: FakeCompozy;
  let proxy: TestProxy;
  let browser: Record<string, string>;

  beforeAll(async () => {
    fake = await startFakeCompozy({ tier: "local" });
    proxy = await startTestProxy(fake.url);
    // What Chromium sends from the SPA served by Tideline.
    browser = { Origin: proxy.url, "Sec-Fetch-Site": "same-origin" };
  });
  afterAll(async () => {
    await proxy.stop();
    await fake.stop();
  });

  it("when the SPA's own headers reach CompozyOS unrewritten, then it refuses them (the rule the proxy must meet)", async () => {
    const direct = await fetch(`${fake.url}/api/sessions`, {
      method: "POST",
      headers: { ...browser, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(direct.status).toBe(403);
    expect(await direct.json()).toEqual({ error: "origin not allowed" });
  });

  it("when the browser reads JSON through the proxy, then CompozyOS sees its own Host and Origin and none of the browser's credentials", async () => {
    const response = await fetch(`${proxy.url}/api/sessions?limit=50&access_token=browser-secret`, {
      headers: {
        ...browser,
        Authorization: "Bearer browser-secret",
        Cookie: "tideline=1",
        Referer: `${proxy.url}/w/ws_1`,
        "X-Forwarded-Proto": "https",
        "X-Forwarded-For": "10.0.0.1",
        Accept: "application/json",
      },
    });
    expect(response.status).toBe(200);
    const echo = (await response.json()) as Echo;
    expect(echo).toMatchObject({ method: "GET", path: "/api/sessions", query: { limit: "50" } });
    expect(echo.headers.host).toBe(new URL(fake.url).host);
    expect(echo.headers.origin).toBe(fake.url);
    expect(echo.headers["sec-fetch-site"]).toBe("same-origin");
    expect(echo.headers.accept).toBe("application/json");
    for (const name of [
      "authorization",
      "cookie",
      "referer",
      "x-forwarded-proto",
      "x-forwarded-for",
    ]) {
      expect(echo.headers[name], name).toBeUndefined();
    }
    // The answer carries no cookie and no CORS grant for the upstream's origin, and tells a
    // CompozyOS-style client it needs no tickets.
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("x-compozy-gateway-tier")).toBe("local");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("when the SPA posts, puts, patches and deletes, then method, path, query and body arrive as sent", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const body = JSON.stringify({ name: `renamed by ${method}` });
      const response = await fetch(`${proxy.url}/api/workspaces/ws_1/sessions/s_1?x=1&x=2`, {
        method,
        headers: { ...browser, "Content-Type": "application/json" },
        body,
      });
      expect(response.status, method).toBe(200);
      const echo = (await response.json()) as Echo;
      expect(echo).toMatchObject({
        method,
        path: "/api/workspaces/ws_1/sessions/s_1",
        bodyBytes: body.length,
      });
      expect(echo.headers["content-length"]).toBe(String(body.length));
      expect(echo.headers["content-type"]).toBe("application/json");
    }
  });

  it("when a body is over the reference daemon's 1 MiB, then Tideline refuses it 413 itself and forwards nothing; under it, it passes (ADR 0175)", async () => {
    const post = (body: BodyInit, extra: RequestInit = {}) =>
      fetch(`${proxy.url}/api/workspaces/ws_1/sessions/s_1/attachments`, {
        method: "POST",
        headers: { ...browser, "Content-Type": "application/octet-stream" },
        body,
        ...extra,
      });
    const under = await post(Buffer.alloc(900 << 10, 1));
    expect(under.status).toBe(200);
    expect(((await under.json()) as Echo).bodyBytes).toBe(900 << 10);
    const forwarded = fake.requests.length;

    const declared = await post(Buffer.alloc(3 << 20, 1));
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ code: "payload_too_large" });

    // No Content-Length: counted as it comes and cut off past the limit, never buffered whole.
    const chunk = Buffer.alloc(256 << 10, 2);
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.length;
        if (sent > 512 << 20) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const chunked = await post(endless, { duplex: "half" } as RequestInit).then(
      (response) => response.status,
      () => "closed",
    );
    expect([413, "closed"]).toContain(chunked);
    expect(sent).toBeLessThan(512 << 20);
    expect(fake.requests).toHaveLength(forwarded);
  });

  it("when the upstream answers 204 or a HEAD, then the browser gets the status with no body", async () => {
    const none = await fetch(`${proxy.url}/api/no-content`);
    expect(none.status).toBe(204);
    expect(await none.text()).toBe("");
    const head = await fetch(`${proxy.url}/api/sessions`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("when the upstream flushes a stream event, then it reaches the browser at once while the stream stays open, and closing the browser's side closes the upstream's", async () => {
    const opened = fake.nextStream();
    const sse = await openSse(`${proxy.url}${STREAM}?epoch=3&generation=7`, {
      Accept: "text/event-stream",
    });
    expect(sse.status).toBe(200);
    const upstream = await within(opened, 2000, "stream forwarded");
    expect(upstream.url).toBe(`${STREAM}?epoch=3&generation=7`);

    const sentAt = performance.now();
    upstream.send("transcript_delta", { n: 1 });
    const first = await sse.waitFor((event) => event.event === "transcript_delta", 1000);
    expect(first.receivedAt - sentAt).toBeLessThan(500);
    expect(JSON.parse(first.data)).toEqual({ n: 1 });
    // Any event name passes through, including ones Tideline's SPA does not read.
    upstream.send("goal_snapshot_changed", { n: 2 });
    await sse.waitFor((event) => event.event === "goal_snapshot_changed", 1000);
    expect(upstream.isClosed()).toBe(false);

    sse.close();
    await within(upstream.closed, 2000, "upstream stream closed after the browser left");
  });

  it("when the SPA asks for append frames, then CompozyOS gets the query as sent and its whole-entry deltas come back as they are", async () => {
    const opened = fake.nextStream();
    const query = "frames=transcript&after_sequence=4&epoch=3&generation=7&tideline_append=1";
    const sse = await openSse(`${proxy.url}${STREAM}?${query}`, { Accept: "text/event-stream" });
    const upstream = await within(opened, 2000, "stream forwarded");
    // CompozyOS reads named parameters only: this one changes nothing there (ADR 0200).
    expect(upstream.url).toBe(`${STREAM}?${query}`);
    const delta = {
      session_id: "s_1",
      epoch: 3,
      generation: 7,
      entries: [
        { message: { id: "m", role: "assistant", parts: [] }, start_sequence: 5, sequence: 6 },
      ],
      cursor: 6,
      max_sequence: 6,
      has_more: false,
    };
    upstream.send("transcript_delta", delta);
    const first = await sse.waitFor((event) => event.event === "transcript_delta", 1000);
    expect(first.data).toBe(JSON.stringify(delta));
    expect(sse.events.map((event) => event.event)).not.toContain("entry_append");
    sse.close();
    await within(upstream.closed, 2000, "upstream stream closed after the browser left");
  });
});

describe("upstream mode, toward a CompozyOS gateway listener (tier private)", () => {
  const CREDENTIAL = "cpz_device.Zm9vYmFy-_~+/=";
  let fake: FakeCompozy;
  const proxies: TestProxy[] = [];

  beforeAll(async () => {
    fake = await startFakeCompozy({ tier: "private", credential: CREDENTIAL });
  });
  afterEach(async () => {
    await Promise.all(proxies.splice(0).map((proxy) => proxy.stop()));
  });
  afterAll(() => fake.stop());

  async function proxyWith(options: { upstreamToken?: string; token?: string }) {
    const proxy = await startTestProxy(fake.url, options);
    proxies.push(proxy);
    return proxy;
  }

  it("when no upstream token is configured, then CompozyOS's 401 comes back as it is", async () => {
    const proxy = await proxyWith({});
    const response = await fetch(`${proxy.url}/api/sessions`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: "gateway_device_unauthenticated" });
  });

  it("when --upstream-token is set, then it is the bearer upstream and the browser's Tideline token stays at Tideline", async () => {
    const proxy = await proxyWith({ upstreamToken: CREDENTIAL, token: "tideline-token" });
    const response = await fetch(`${proxy.url}/api/sessions`, {
      headers: { Authorization: "Bearer tideline-token" },
    });
    expect(response.status).toBe(200);
    const echo = (await response.json()) as Echo;
    expect(echo.headers.authorization).toBe(`Bearer ${CREDENTIAL}`);
    expect(JSON.stringify(echo)).not.toContain("tideline-token");
  });

  it("when Tideline has its own --token, then a browser without it is refused before anything is forwarded", async () => {
    const proxy = await proxyWith({ upstreamToken: CREDENTIAL, token: "tideline-token" });
    const before = fake.requests.length;
    const response = await fetch(`${proxy.url}/api/sessions`, {
      headers: { Authorization: `Bearer ${CREDENTIAL}` },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: "unauthorized" });
    expect(fake.requests.length).toBe(before);
  });

  it("when streams are opened, then each is forwarded with its own freshly minted single-use ticket and no bearer, and the browser's ticket and token are dropped", async () => {
    const proxy = await proxyWith({ upstreamToken: CREDENTIAL, token: "tideline-token" });
    const mintedBefore = fake.minted.length;
    const urls: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const opened = fake.nextStream();
      const sse = await openSse(
        `${proxy.url}${STREAM}?epoch=1&ticket=from-browser&access_token=tideline-token`,
      );
      expect(sse.status).toBe(200);
      const upstream = await within(opened, 2000, "ticketed stream forwarded");
      urls.push(upstream.url);
      upstream.send("keepalive", {});
      await sse.waitFor((event) => event.event === "keepalive", 1000);
      sse.close();
      await within(upstream.closed, 2000, "ticketed stream closed");
    }
    const minted = fake.minted.slice(mintedBefore);
    expect(minted).toHaveLength(3);
    expect(new Set(minted).size).toBe(3);
    urls.forEach((url, i) => {
      expect(url).toBe(`${STREAM}?epoch=1&ticket=${minted[i]}`);
    });
    const streamRequests = fake.requests.filter((request) => request.url.startsWith(STREAM));
    for (const request of streamRequests.slice(-3)) {
      expect(request.headers.authorization).toBeUndefined();
    }
    // The mint itself was authenticated with the credential.
    const mints = fake.requests.filter((r) => r.url === "/api/gateway/stream-tickets");
    expect(mints.at(-1)?.headers.authorization).toBe(`Bearer ${CREDENTIAL}`);
  });

  it("when the prompt POST is forwarded, then it gets a ticket too (CompozyOS classifies it as a stream)", async () => {
    const proxy = await proxyWith({ upstreamToken: CREDENTIAL });
    const response = await fetch(`${proxy.url}${PROMPT}`, {
      method: "POST",
      headers: { Origin: proxy.url, "Content-Type": "application/json" },
      body: JSON.stringify({ message: "hi", message_id: "m1", idempotency_key: "k1" }),
    });
    expect(response.status).toBe(200);
    const echo = (await response.json()) as Echo;
    expect(echo.query.ticket).toBe(fake.minted.at(-1));
    expect(echo.headers.authorization).toBeUndefined();
    expect(echo.headers.origin).toBe(fake.url);
  });

  it("when CompozyOS will not mint (a wrong token), then its 401 reaches the browser on the stream request", async () => {
    const proxy = await proxyWith({ upstreamToken: "wrong" });
    const response = await fetch(`${proxy.url}${STREAM}`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: "gateway_device_unauthenticated" });
  });
});

describe("upstream mode, hostile and broken cases", () => {
  it("when the upstream is not listening, then JSON and stream requests get a 502 in the error envelope", async () => {
    const fake = await startFakeCompozy();
    const deadUrl = fake.url;
    await fake.stop();
    const proxy = await startTestProxy(deadUrl);
    try {
      for (const path of ["/api/sessions", STREAM]) {
        const response = await fetch(`${proxy.url}${path}`);
        expect(response.status, path).toBe(502);
        const envelope = ErrorEnvelope.parse(await response.json());
        expect(envelope.code).toBe("upstream_unreachable");
        expect(envelope.error).toContain(`cannot reach the upstream daemon at ${deadUrl}`);
      }
    } finally {
      await proxy.stop();
    }
  });

  it("when another page's origin calls the proxy, then Tideline refuses it and forwards nothing", async () => {
    const fake = await startFakeCompozy();
    const proxy = await startTestProxy(fake.url);
    try {
      const attempts: [string, RequestInit][] = [
        ["/api/sessions", { headers: { Origin: "http://evil.example" } }],
        // The upstream's own origin is foreign here too: CompozyOS's web could read through.
        ["/api/sessions", { headers: { Origin: fake.url } }],
        [
          "/api/sessions",
          { method: "POST", headers: { "Sec-Fetch-Site": "cross-site" }, body: "{}" },
        ],
        ["/api/sessions", { method: "DELETE", headers: { Origin: "null" } }],
      ];
      for (const [path, init] of attempts) {
        const response = await fetch(`${proxy.url}${path}`, init);
        expect(response.status, JSON.stringify(init)).toBe(403);
        expect(await response.json()).toMatchObject({ code: "forbidden_origin" });
      }
      expect(fake.requests).toEqual([]);
    } finally {
      await proxy.stop();
      await fake.stop();
    }
  });
});
