// The page a session link gets names the SPA's first two reads as preloads (ADR 0210). A
// preload is only used when the SPA's fetch asks for the same URL with the same credentials
// mode and no header of its own, so this compares the page with what the SPA's query
// functions really send: it fails as soon as either side drifts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QueryClient } from "@tanstack/react-query";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { sessionQueries } from "../../src/api/session-queries";
import { transcriptQueries } from "../../src/api/transcript-queries";
import { createApp } from "../app";
import { withFirstPaintPreloads } from "./static-site";

const top = mkdtempSync(join(tmpdir(), "tideline-preload-"));
const dist = join(top, "dist");
mkdirSync(join(dist, "assets"), { recursive: true });
const html = `<!doctype html><html><head><title>Tideline</title><script type="module" src="/assets/app-1.js"></script></head><body></body></html>`;
writeFileSync(join(dist, "index.html"), html);
afterAll(() => rmSync(top, { recursive: true, force: true }));
afterEach(() => vi.unstubAllGlobals());

const security = { allowedHosts: [], port: () => undefined };
const open = createApp({ version: "test", security, distDir: dist });
const withToken = createApp({
  version: "test",
  security: { ...security, token: "t" },
  distDir: dist,
});

type Preload = { href: string; as: string; crossorigin: string | undefined };

function preloadsOf(page: string): Preload[] {
  return [...page.matchAll(/<link rel="preload"([^>]*)>/g)].map((match) => {
    const attribute = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(match[1] ?? "")?.[1];
    return {
      href: attribute("href") ?? "",
      as: attribute("as") ?? "",
      crossorigin: attribute("crossorigin"),
    };
  });
}

/** What the SPA's fetch is called with when each first-read query runs. */
async function spaReads(ref: { workspaceId: string; sessionId: string }) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    throw new Error("recorded");
  });
  const client = new QueryClient();
  await client.fetchQuery(sessionQueries.detail(ref)).catch(() => undefined);
  await client.fetchQuery(transcriptQueries.detail(ref)).catch(() => undefined);
  return calls;
}

describe("first-paint preloads", () => {
  it("when a session link is served, then its preloads are exactly the URLs, credentials mode and headers of the SPA's first reads", async () => {
    const ref = { workspaceId: "ws_a-B_9", sessionId: "ses_Xy-z_0" };
    const response = await open.request(`/w/${ref.workspaceId}/s/${ref.sessionId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    const page = await response.text();
    const preloads = preloadsOf(page);
    const calls = await spaReads(ref);
    expect(calls.map((call) => call.url)).toEqual(preloads.map((preload) => preload.href));
    expect(preloads).toHaveLength(2);
    for (const [index, preload] of preloads.entries()) {
      expect(preload.as).toBe("fetch");
      // crossorigin="anonymous" on a fetch preload is credentials mode "same-origin".
      expect(preload.crossorigin).toBe("anonymous");
      expect(calls[index]?.init.credentials).toBe("same-origin");
      expect(calls[index]?.init.method).toBe("GET");
      // A preload sends no header of its own; a read that added one would not match it.
      expect(calls[index]?.init.headers).toEqual({});
    }
    // Before the bundle's script, so the reads start first.
    expect(page.indexOf('rel="preload"')).toBeLessThan(page.indexOf("<script"));
  });

  it("when the API needs a token, then no preload is named (the page request carries none)", async () => {
    const page = await (await withToken.request("/w/ws_a/s/ses_b")).text();
    expect(preloadsOf(page)).toEqual([]);
    expect(page).toBe(html);
  });

  it.each([
    ["/w/ws_a/s/ses_b/extra"],
    ["/w/ws%3Cscript%3E/s/ses_b"],
    ['/w/ws_a"onload=x/s/ses_b'],
    [`/w/ws_a/s/${"x".repeat(65)}`],
    ["/w//s/ses_b"],
    ["/"],
    ["/elsewhere"],
  ])("when %s is asked for, then index.html is served unchanged, with no preload", async (path) => {
    const response = await open.request(path);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(html);
  });

  it("when HEAD asks for a session link, then the length is the preloaded page's and there is no body", async () => {
    const get = await open.request("/w/ws_a/s/ses_b");
    const head = await open.request("/w/ws_a/s/ses_b", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(await get.text())));
    expect(await head.text()).toBe("");
  });

  it("when index.html has no <head>, then it is left as it is", () => {
    expect(withFirstPaintPreloads("<p>bare</p>", "/w/ws_a/s/ses_b")).toBeUndefined();
  });
});
