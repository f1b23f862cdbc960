import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app";
import { IMMUTABLE, REVALIDATE } from "./static-site";

const top = mkdtempSync(join(tmpdir(), "tideline-static-"));
const dist = join(top, "dist");
mkdirSync(join(dist, "assets"), { recursive: true });
// Beside dist, never inside it: what a traversal would try to reach.
writeFileSync(join(top, "secret.txt"), "TOP SECRET");
const script = `export const rows = [${Array.from({ length: 2000 }, (_, i) => `"row ${i}"`).join(",")}];\n`;
const html = `<!doctype html><title>Tideline</title><script type="module" src="/assets/app-abc123.js"></script>`;
writeFileSync(join(dist, "index.html"), html);
writeFileSync(join(dist, "assets", "app-abc123.js"), script);
writeFileSync(join(dist, "assets", "app-abc123.js.br"), brotliCompressSync(script));
writeFileSync(join(dist, "assets", "app-abc123.js.gz"), gzipSync(script));
// A hashed file whose precompressed copies are missing (a partial build or a deleted file).
writeFileSync(join(dist, "assets", "plain-def456.css"), "body{color:red}\n".repeat(200));
writeFileSync(join(dist, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
// Symlinks planted in dist: to a file beside it, to a directory beside it, and a
// precompressed variant that points out while its plain file is legitimate.
mkdirSync(join(top, "outside"));
writeFileSync(join(top, "outside", "leak.js"), "TOP SECRET");
symlinkSync(join(top, "secret.txt"), join(dist, "linked.txt"));
symlinkSync(join(top, "outside"), join(dist, "assets", "out"));
writeFileSync(join(dist, "assets", "ok-1a2b3c.js"), "export const ok = 1;\n".repeat(100));
symlinkSync(join(top, "secret.txt"), join(dist, "assets", "ok-1a2b3c.js.br"));
// A symlink that stays inside dist is harmless and keeps working.
symlinkSync(join(dist, "favicon.svg"), join(dist, "icon.svg"));

const app = createApp({
  version: "test",
  security: { allowedHosts: [], port: () => undefined },
  distDir: dist,
});

afterAll(() => rmSync(top, { recursive: true, force: true }));

const get = (path: string, acceptEncoding?: string, method = "GET") =>
  app.request(path, {
    method,
    headers: acceptEncoding === undefined ? {} : { "Accept-Encoding": acceptEncoding },
  });

async function bytes(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

describe("static assets, precompressed", () => {
  it("when the client accepts br, then the brotli copy is sent with its own length, the JS type, Vary and immutable caching", async () => {
    const response = await get("/assets/app-abc123.js", "gzip, deflate, br, zstd");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(response.headers.get("cache-control")).toBe(IMMUTABLE);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const body = await bytes(response);
    expect(Number(response.headers.get("content-length"))).toBe(body.length);
    expect(body.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(body).toString()).toBe(script);
  });

  it("when the client prefers gzip by q-value or refuses br, then the gzip copy is sent", async () => {
    for (const header of ["gzip;q=1, br;q=0.5", "br;q=0, gzip", "gzip"]) {
      const response = await get("/assets/app-abc123.js", header);
      expect(response.headers.get("content-encoding")).toBe("gzip");
      const body = await bytes(response);
      expect(Number(response.headers.get("content-length"))).toBe(body.length);
      expect(gunzipSync(body).toString()).toBe(script);
    }
  });

  it("when the client sends no Accept-Encoding or refuses both, then the file is sent as it is", async () => {
    for (const header of [undefined, "identity", "br;q=0, gzip;q=0", "deflate"]) {
      const response = await get("/assets/app-abc123.js", header);
      expect(response.headers.get("content-encoding")).toBeNull();
      expect(response.headers.get("vary")).toBe("Accept-Encoding");
      const body = await bytes(response);
      expect(body.toString()).toBe(script);
      expect(Number(response.headers.get("content-length"))).toBe(script.length);
    }
  });

  it("when a file's precompressed copies are missing, then identity is sent even to a br client", async () => {
    const response = await get("/assets/plain-def456.css", "br, gzip");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("vary")).toBeNull();
    expect(response.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe(IMMUTABLE);
    expect((await bytes(response)).length).toBe(200 * 16);
  });

  it("when index.html, a client-side route or an unhashed file is asked for, then it must be revalidated", async () => {
    for (const path of ["/", "/index.html", "/w/ws_1/s/ses_1"]) {
      const response = await get(path, "br");
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe(REVALIDATE);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
      expect(await response.text()).toBe(html);
    }
    expect((await get("/favicon.svg")).headers.get("cache-control")).toBe(REVALIDATE);
  });

  it("when a missing /assets file is asked for, then 404, not the SPA's HTML", async () => {
    const response = await get("/assets/app-gone99.js", "br");
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("<title>");
  });

  it("when HEAD is asked, then the headers of GET come without a body", async () => {
    const response = await get("/assets/app-abc123.js", "br", "HEAD");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(Number(response.headers.get("content-length"))).toBe(brotliCompressSync(script).length);
    expect((await bytes(response)).length).toBe(0);
  });

  it.each([
    "/../secret.txt",
    "/..%2fsecret.txt",
    "/%2e%2e/secret.txt",
    "/%2e%2e%2fsecret.txt",
    "/assets/..%2f..%2fsecret.txt",
    "/assets/%2e%2e%2f%2e%2e%2fsecret.txt",
    "/assets/..%5c..%5csecret.txt",
    "/assets/app-abc123.js%00.png",
    "/%00",
    "/assets/%E0%A4%A",
    "/%252e%252e/secret.txt",
    "//etc/passwd",
    `/${"%2e%2e%2f".repeat(20)}etc/passwd`,
  ])("when the path is hostile (%s), then nothing outside dist is read", async (path) => {
    const response = await get(path, "br, gzip");
    const text = (await bytes(response)).toString("latin1");
    expect(text).not.toContain("TOP SECRET");
    expect(text).not.toContain("root:");
    if (response.status === 200) {
      // At most the SPA's own page, never a file named by the traversal.
      expect(text).toBe(html);
    } else {
      expect(response.status).toBe(404);
    }
  });
});

describe("symlinks in dist", () => {
  it.each(["/linked.txt", "/assets/out/leak.js"])(
    "when %s is a symlink to a file outside dist, then it is not served",
    async (path) => {
      const response = await get(path, "br, gzip");
      const text = (await bytes(response)).toString("latin1");
      expect(text).not.toContain("TOP SECRET");
      if (response.status === 200) expect(text).toBe(html);
      else expect(response.status).toBe(404);
    },
  );

  it("when a precompressed variant is a symlink out of dist, then the plain file is sent instead", async () => {
    const response = await get("/assets/ok-1a2b3c.js", "br");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.text()).toContain("export const ok");
  });

  it("when a symlink stays inside dist, then it is served", async () => {
    const response = await get("/icon.svg");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("<svg");
  });
});

describe("static assets on the wire", () => {
  let base = "";
  let server: ReturnType<typeof serve>;
  beforeAll(async () => {
    base = await new Promise((resolve) => {
      server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) =>
        resolve(`http://127.0.0.1:${(info as AddressInfo).port}`),
      );
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Raw bytes and headers as sent, with no client-side decoding. */
  function raw(path: string, acceptEncoding?: string) {
    return new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>(
      (resolve, reject) => {
        const req = httpRequest(`${base}${path}`, {
          headers: acceptEncoding === undefined ? {} : { "Accept-Encoding": acceptEncoding },
        });
        req.on("response", (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on("error", reject);
        req.end();
      },
    );
  }

  it("when fetched over HTTP with br, then the bytes on the wire are the brotli copy and Content-Length matches them", async () => {
    const br = await raw("/assets/app-abc123.js", "br");
    const identity = await raw("/assets/app-abc123.js");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(Number(identity.headers["content-length"])).toBe(identity.body.length);
    expect(identity.body.toString()).toBe(script);
    expect(br.body.length).toBeLessThan(identity.body.length / 4);
  });
});
