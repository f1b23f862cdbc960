// Requests no browser sends, written on a raw socket: whatever they try, the proxy talks to
// the configured upstream only, and only about /api.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeCompozy, startFakeCompozy } from "../testing/fake-compozy";
import { rawRequest, startTestProxy, statusOf, type TestProxy } from "../testing/upstream-server";

describe("upstream mode under hostile requests", () => {
  let fake: FakeCompozy;
  let proxy: TestProxy;
  let decoy: Server;
  let decoyPort: number;
  let decoyHits = 0;
  let host: string;

  beforeAll(async () => {
    fake = await startFakeCompozy({ tier: "private", credential: "secret-credential" });
    proxy = await startTestProxy(fake.url, { upstreamToken: "secret-credential" });
    host = `127.0.0.1:${proxy.port}`;
    // Somewhere a request must never be sent, with the credential least of all.
    decoy = createServer((_req, res) => {
      decoyHits += 1;
      res.end("decoy");
    });
    await new Promise<void>((resolve) => decoy.listen(0, "127.0.0.1", resolve));
    decoyPort = (decoy.address() as AddressInfo).port;
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });
  afterAll(async () => {
    expect(decoyHits).toBe(0);
    await proxy.stop();
    await fake.stop();
    await new Promise((resolve) => decoy.close(resolve));
  });

  const get = (target: string, extra: string[] = []) =>
    rawRequest(proxy.port, [
      `GET ${target} HTTP/1.1`,
      `Host: ${host}`,
      ...extra,
      "Connection: close",
    ]);

  it("when a path climbs out of /api with dot segments (plain or percent-encoded), then nothing is forwarded", async () => {
    for (const target of [
      "/api/../../etc/passwd",
      "/api/%2e%2e/%2E%2E/status",
      "/api/./../admin",
      "/api/sessions/../../../x",
    ]) {
      const answer = await get(target);
      expect(statusOf(answer), target).toBe(404);
    }
    expect(fake.requests).toEqual([]);
  });

  it("when dot segments stay inside /api or an encoded slash hides them, then the normalised path goes to the upstream only", async () => {
    await get("/api/sessions/../status");
    await get("/api/sessions/..%2f..%2fadmin");
    expect(fake.requests.map((request) => request.url)).toEqual([
      "/api/status",
      "/api/sessions/..%2f..%2fadmin",
    ]);
  });

  it("when the request target is an absolute URL naming another server, then it still goes to the configured upstream", async () => {
    const answer = await get(`http://127.0.0.1:${decoyPort}/api/sessions?limit=5`);
    expect(statusOf(answer)).toBe(200);
    expect(fake.requests.map((request) => request.url)).toEqual(["/api/sessions?limit=5"]);
    expect(fake.requests[0]?.headers.host).toBe(new URL(fake.url).host);
    expect(decoyHits).toBe(0);
  });

  it("when a path starts with // or hides an authority after /api, then it is a path, never a host", async () => {
    const answer = await get(`//127.0.0.1:${decoyPort}/api/sessions`);
    expect(statusOf(answer)).toBe(404);
    expect(fake.requests).toEqual([]);
    await get(`/api//127.0.0.1:${decoyPort}/x`);
    await get(`/api/@127.0.0.1:${decoyPort}/x`);
    expect(fake.requests.map((request) => request.url)).toEqual([
      `/api//127.0.0.1:${decoyPort}/x`,
      `/api/@127.0.0.1:${decoyPort}/x`,
    ]);
    expect(decoyHits).toBe(0);
  });

  it("when Host or the target names another server, then Tideline's Host rule refuses it", async () => {
    const answers = [
      await rawRequest(proxy.port, [
        `GET http://127.0.0.1:${decoyPort}/api/sessions HTTP/1.1`,
        `Host: 127.0.0.1:${decoyPort}`,
        "Connection: close",
      ]),
      await rawRequest(proxy.port, [
        "GET /api/sessions HTTP/1.1",
        "Host: evil.example",
        "Connection: close",
      ]),
      await rawRequest(proxy.port, [
        `CONNECT 127.0.0.1:${decoyPort} HTTP/1.1`,
        `Host: 127.0.0.1:${decoyPort}`,
      ]),
    ];
    expect(answers.map(statusOf)[0]).toBe(403);
    expect(answers.map(statusOf)[1]).toBe(403);
    // CONNECT is not served at all: no tunnel, no answer.
    expect([0, 400, 403, 405]).toContain(statusOf(answers[2] ?? ""));
    expect(fake.requests).toEqual([]);
  });

  it("when headers try to smuggle or inject (folding, CR/LF in the target, duplicate lengths), then the request never reaches the upstream as a new header or request", async () => {
    const attempts = [
      // An obsolete line fold carrying a second Host.
      ["GET /api/sessions HTTP/1.1", `Host: ${host}`, "X-Note: a", ` Host: 127.0.0.1:${decoyPort}`],
      // Content-Length and Transfer-Encoding together: the classic smuggling pair.
      [
        "POST /api/sessions HTTP/1.1",
        `Host: ${host}`,
        "Content-Length: 4",
        "Transfer-Encoding: chunked",
      ],
      ["POST /api/sessions HTTP/1.1", `Host: ${host}`, "Content-Length: 1", "Content-Length: 2"],
    ];
    for (const lines of attempts) {
      const answer = await rawRequest(proxy.port, [...lines, "Connection: close"], "0\r\n\r\n");
      expect(statusOf(answer), lines.join(" | ")).toBe(400);
    }
    // Encoded CR/LF stays encoded in the path and query: no header appears upstream.
    await get("/api/sessions%0d%0aX-Injected:%201?q=%0d%0aX-Injected:%202");
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.headers["x-injected"]).toBeUndefined();
    expect(fake.requests[0]?.url).toBe(
      "/api/sessions%0d%0aX-Injected:%201?q=%0d%0aX-Injected:%202",
    );
  });

  it("when the browser names headers as hop-by-hop, then those are not forwarded", async () => {
    await get("/api/sessions", ["Connection: x-secret, keep-alive", "X-Secret: 1", "TE: trailers"]);
    const headers = fake.requests[0]?.headers ?? {};
    expect(headers["x-secret"]).toBeUndefined();
    expect(headers.te).toBeUndefined();
    expect(headers.authorization).toBe("Bearer secret-credential");
  });

  it("when the browser offers its own credential or ticket, then only the configured credential goes upstream", async () => {
    await get("/api/sessions?ticket=stolen&access_token=x", [
      "Authorization: Bearer someone-else",
      "Cookie: compozy_gateway_device=someone-else",
    ]);
    await get("/api/sessions?follow&a=b%20c+d&access_token=z&ticket=t&z=1");
    const request = fake.requests[0];
    expect(request?.url).toBe("/api/sessions");
    // Everything else in the query goes through byte for byte.
    expect(fake.requests[1]?.url).toBe("/api/sessions?follow&a=b%20c+d&z=1");
    expect(request?.headers.authorization).toBe("Bearer secret-credential");
    expect(request?.headers.cookie).toBeUndefined();
  });
});
