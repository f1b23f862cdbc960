import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorEnvelope } from "../../src/contract/error";
import { createApp } from "../app";
import { startTestDaemon, type TestDaemon } from "../testing/daemon";
import { isAllowedHost, MAX_BODY_BYTES, tokenMatches } from "./security";

async function expectEnvelope(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = ErrorEnvelope.parse(await response.json());
  expect(body.code).toBe(code);
  expect(JSON.stringify(body)).not.toMatch(/\bat .*\.ts:\d+/);
  return body;
}

describe("Host rule", () => {
  const options = { allowedHosts: ["tideline.lan", "localhost:5173"], port: () => 4820 };

  it("when the Host names a loopback address on the bound port, then it is allowed", () => {
    for (const host of ["127.0.0.1:4820", "localhost:4820", "[::1]:4820", "LOCALHOST:4820"]) {
      expect(isAllowedHost(host, options)).toBe(true);
    }
  });

  it("when the Host is foreign, on another port or malformed, then it is refused", () => {
    for (const host of [
      "evil.com:4820",
      "127.0.0.1:4821",
      "127.0.0.1.evil.com",
      "",
      "a b",
      "x@127.0.0.1:4820",
    ]) {
      expect(isAllowedHost(host, options)).toBe(false);
    }
    expect(isAllowedHost(undefined, options)).toBe(false);
  });

  it("when a name is configured, then it is allowed on the bound port, or on its own port when it names one", () => {
    expect(isAllowedHost("tideline.lan:4820", options)).toBe(true);
    expect(isAllowedHost("tideline.lan:9999", options)).toBe(false);
    expect(isAllowedHost("localhost:5173", options)).toBe(true);
  });
});

describe("token comparison", () => {
  it("when the bearer token matches, then it passes; otherwise not", () => {
    expect(tokenMatches("Bearer s3cret", "s3cret")).toBe(true);
    expect(tokenMatches("Bearer s3cre", "s3cret")).toBe(false);
    expect(tokenMatches("s3cret", "s3cret")).toBe(false);
    expect(tokenMatches(undefined, "s3cret")).toBe(false);
  });
});

describe("the daemon's guards", () => {
  let daemon: TestDaemon;
  let base: string;

  beforeAll(async () => {
    daemon = await startTestDaemon({ token: "t0ken" });
    base = await daemon.listen();
  });
  afterAll(() => daemon.stop());

  const auth = { Authorization: "Bearer t0ken" };

  it("when a request has no or a wrong token, then 401 unauthorized", async () => {
    await expectEnvelope(await fetch(`${base}/api/workspaces`), 401, "unauthorized");
    await expectEnvelope(
      await fetch(`${base}/api/workspaces`, { headers: { Authorization: "Bearer nope" } }),
      401,
      "unauthorized",
    );
    expect((await fetch(`${base}/api/workspaces`, { headers: auth })).status).toBe(200);
  });

  it("when the token comes as access_token, then only the stream accepts it", async () => {
    // An unknown session: past the token guard the stream answers 404, before it 401.
    const stream = `${base}/api/workspaces/${daemon.ws}/sessions/ses_missing/stream`;
    await expectEnvelope(await fetch(`${stream}?access_token=t0ken`), 404, "not_found");
    await expectEnvelope(await fetch(`${stream}?access_token=nope`), 401, "unauthorized");
    await expectEnvelope(
      await fetch(`${base}/api/workspaces?access_token=t0ken`),
      401,
      "unauthorized",
    );
  });

  it.each([
    "/api/stream",
    "/api/workspaces/x/stream",
    "/api/workspaces/x/sessions/stream",
    "/api/workspaces/x/sessions/y/events/stream",
    "/api/no-such-route/a/b/c/stream",
  ])(
    "when access_token is sent to %s (ends in /stream but is not a session's stream), then it is refused",
    async (path) => {
      await expectEnvelope(await fetch(`${base}${path}?access_token=t0ken`), 401, "unauthorized");
    },
  );

  /** A raw request, so Host and framing are exactly what a hostile client would send. */
  async function rawRequest(
    path: string,
    options: { method?: string; headers: Record<string, string>; chunks?: string[] },
  ): Promise<{ status: number; body: string }> {
    const { request } = await import("node:http");
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: new URL(base).port,
          path,
          method: options.method ?? "GET",
          headers: options.headers,
        },
        (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => {
            body += chunk.toString();
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      for (const chunk of options.chunks ?? []) req.write(chunk);
      req.end();
    });
  }

  it("when the stream is asked for with a foreign Host, then 403 too: read-only is not exempt", async () => {
    // An unknown session: past the Host rule this would be 404, not 403.
    const path = `${daemon.sessionPath("ses_any")}/stream`;
    const port = new URL(base).port;
    const stream = await rawRequest(path, {
      headers: { Host: `rebound.example:${port}`, ...auth },
    });
    expect(stream.status).toBe(403);
    expect(ErrorEnvelope.parse(JSON.parse(stream.body)).code).toBe("forbidden_origin");
    const withQueryToken = await rawRequest(`${path}?access_token=t0ken`, {
      headers: { Host: `127.0.0.1:${Number(port) + 1}` },
    });
    expect(withQueryToken.status).toBe(403);
  });

  it("when a POST carries Origin: null, then 403 forbidden_origin", async () => {
    const response = await fetch(`${base}/api/sessions`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json", Origin: "null" },
      body: "{}",
    });
    await expectEnvelope(response, 403, "forbidden_origin");
  });

  it("when a chunked body without Content-Length grows past 1 MiB, then 413 and nothing is created", async () => {
    const chunk = "x".repeat(64 * 1024);
    const response = await rawRequest("/api/sessions", {
      method: "POST",
      headers: {
        Host: new URL(base).host,
        ...auth,
        "Content-Type": "application/json",
        "Transfer-Encoding": "chunked",
      },
      chunks: ['{"name":"', ...Array.from({ length: 17 }, () => chunk), '"}'],
    });
    expect(response.status).toBe(413);
    expect(ErrorEnvelope.parse(JSON.parse(response.body)).code).toBe("payload_too_large");
    expect(daemon.ledger.store.listSessions({}).some((s) => s.name?.startsWith("x"))).toBe(false);
  });

  it("when the Host header is hostile, then 403 before anything else", async () => {
    const port = new URL(base).port;
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          path: "/api/workspaces",
          headers: { Host: `evil.example:${port}`, ...auth },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it("when a POST carries a foreign Origin, then 403 forbidden_origin and nothing is created", async () => {
    const response = await fetch(`${base}/api/sessions`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json", Origin: "http://evil.example" },
      body: "{}",
    });
    await expectEnvelope(response, 403, "forbidden_origin");
    expect(daemon.ledger.store.listSessions({})).toHaveLength(0);
  });

  it("when a POST carries the daemon's own Origin, then it passes the origin rule", async () => {
    const response = await fetch(`${base}/api/workspaces/${daemon.ws}/sessions/nope/prompt`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json", Origin: base },
      body: JSON.stringify({ text: "hi" }),
    });
    await expectEnvelope(response, 404, "not_found");
  });

  it("when a PATCH or DELETE carries a foreign Origin or a non-JSON body, then 403 / 415 and nothing changes", async () => {
    const path = `${base}/api/workspaces/${daemon.ws}/sessions/nope`;
    const foreign = { ...auth, Origin: "http://evil.example" };
    await expectEnvelope(
      await fetch(path, { method: "DELETE", headers: foreign }),
      403,
      "forbidden_origin",
    );
    await expectEnvelope(
      await fetch(path, {
        method: "PATCH",
        headers: { ...foreign, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "x" }),
      }),
      403,
      "forbidden_origin",
    );
    await expectEnvelope(
      await fetch(path, {
        method: "PATCH",
        headers: { ...auth, "Content-Type": "text/plain" },
        body: JSON.stringify({ name: "x" }),
      }),
      415,
      "invalid_request",
    );
    // A bodiless POST (CompozyOS clients send stop and cancel this way) needs no type.
    await expectEnvelope(
      await fetch(`${path}/stop`, { method: "POST", headers: auth }),
      404,
      "not_found",
    );
  });

  it("when a POST is not JSON by content type, then 415 invalid_request", async () => {
    const response = await fetch(`${base}/api/sessions`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "text/plain" },
      body: "{}",
    });
    await expectEnvelope(response, 415, "invalid_request");
    const form = await fetch(`${base}/api/sessions`, {
      method: "POST",
      headers: auth,
      body: new URLSearchParams({ agent: "demo" }),
    });
    await expectEnvelope(form, 415, "invalid_request");
  });

  it("when a body is larger than 1 MiB, then 413 payload_too_large", async () => {
    const response = await fetch(`${base}/api/workspaces/${daemon.ws}/sessions/x/prompt`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ text: "x".repeat(MAX_BODY_BYTES + 10) }),
    });
    await expectEnvelope(response, 413, "payload_too_large");
  });
});

describe("bad input", () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon();
  });
  afterAll(() => daemon.stop());

  it("when the JSON is malformed, then 400 invalid_request", async () => {
    const response = await daemon.call("POST", "/api/sessions", {
      rawBody: '{"agent": ',
    });
    await expectEnvelope(response, 400, "invalid_request");
  });

  it("when a body has an unknown field, then 400 with the field named, and nothing changes", async () => {
    const response = await daemon.call("POST", "/api/sessions", {
      body: { agent: "demo", command: "rm -rf /" },
    });
    const body = await expectEnvelope(response, 400, "invalid_request");
    expect(body.details).toHaveProperty("command");
    expect(daemon.ledger.store.listSessions({})).toHaveLength(0);
  });

  it("when a body has the wrong types or is not an object, then 400 and nothing changes", async () => {
    const sessions = "/api/sessions";
    for (const rawBody of ['{"agent": 1}', '{"name": null}', "[]", "null", '"demo"', "42"]) {
      await expectEnvelope(
        await daemon.call("POST", sessions, { rawBody }),
        400,
        "invalid_request",
      );
    }
    const session = daemon.ledger.store.createSession({
      workspaceId: daemon.ws,
      agentName: "demo",
    });
    const before = daemon.ledger.reader.maxSequence(session.id);
    const prompt = `${daemon.sessionPath(session.id)}/prompt`;
    for (const rawBody of ['{"text": 5}', '{"text": ["a"]}', '{"text": "hi", "extra": 1}', "{}"]) {
      await expectEnvelope(await daemon.call("POST", prompt, { rawBody }), 400, "invalid_request");
    }
    expect(daemon.ledger.reader.maxSequence(session.id)).toBe(before);
    expect(daemon.ledger.store.listSessions({})).toHaveLength(1);
  });

  it("when a read endpoint gets bad query parameters, then 400 with the parameter named", async () => {
    const session = daemon.ledger.store.createSession({
      workspaceId: daemon.ws,
      agentName: "demo",
    });
    const path = daemon.sessionPath(session.id);
    for (const query of [
      "transcript?limit=-1",
      "transcript?before_sequence=abc",
      "transcript?limit=1&limit=2",
      "events?after_sequence=1e3",
      "events?type=",
      "events?bogus=1",
      "usage?x=1",
      "usage/turns?limit=5",
      "?include_health=maybe",
      "stream?after_sequence=-1",
    ]) {
      const response = await daemon.call(
        "GET",
        `${path}${query.startsWith("?") ? "" : "/"}${query}`,
      );
      if (response.status !== 400) throw new Error(`${query} answered ${response.status}`);
      const body = await expectEnvelope(response, 400, "invalid_request");
      expect(Object.keys(body.details ?? {})).not.toHaveLength(0);
    }
  });

  it("when a session asks for an agent that is not configured, then 400", async () => {
    const response = await daemon.call("POST", "/api/sessions", {
      body: { agent: "bash" },
    });
    await expectEnvelope(response, 400, "invalid_request");
  });

  it("when a session list limit is -1, 0, 101, 200 or abc, then 400; 1 and 100 pass (CompozyOS: 1-100)", async () => {
    for (const limit of ["-1", "0", "101", "200", "1001", "abc", "1.5", ""]) {
      const response = await daemon.call("GET", `/api/sessions?limit=${limit}`);
      await expectEnvelope(response, 400, "invalid_request");
    }
    for (const limit of ["1", "100"]) {
      expect((await daemon.call("GET", `/api/sessions?limit=${limit}`)).status).toBe(200);
    }
  });

  it("when a query parameter CompozyOS reads has a bad value, then 400", async () => {
    await expectEnvelope(
      await daemon.call("GET", "/api/sessions?sort=asc"),
      400,
      "invalid_request",
    );
    await expectEnvelope(
      await daemon.call("GET", "/api/sessions?state=dead"),
      400,
      "invalid_request",
    );
    await expectEnvelope(
      await daemon.call("GET", "/api/sessions?cursor=zzz"),
      400,
      "invalid_request",
    );
  });

  it("when an unknown /api path is asked for, then 404 with the envelope", async () => {
    await expectEnvelope(await daemon.call("GET", "/api/nothing/here"), 404, "not_found");
  });
});

describe("the SPA", () => {
  const dist = mkdtempSync(join(tmpdir(), "tideline-dist-"));
  writeFileSync(join(dist, "index.html"), "<!doctype html><title>Tideline</title>");
  writeFileSync(join(dist, "app.js"), "console.log(1)");
  const app = createApp({
    version: "test",
    security: { allowedHosts: [], port: () => undefined },
    distDir: dist,
  });

  it("when a page is served, then it carries the CSP, nosniff and no-referrer headers", async () => {
    const response = await app.request("/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(response.headers.get("content-security-policy")).not.toContain("unsafe-inline");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("when a client-side route is reloaded, then index.html answers; /api paths never do", async () => {
    const page = await app.request("/w/ws_1/s/ses_1");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<title>Tideline</title>");
    expect((await app.request("/app.js")).headers.get("content-type")).toContain("javascript");
    await expectEnvelope(await app.request("/api/nope"), 404, "not_found");
  });

  it("when health is asked, then it answers ok with the version", async () => {
    expect(await (await app.request("/api/health")).json()).toEqual({
      status: "ok",
      version: "test",
    });
  });
});
