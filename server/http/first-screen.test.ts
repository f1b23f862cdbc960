// A session link's page carries the session's first screen (ADR 0217), drawn from the
// daemon's own answers to the SPA's first reads: with a real ledger and the demo agent, a
// hostile prompt stays text, and every page that cannot have one is sent as before.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIRST_SCREEN_ID } from "../../src/contract/first-paint";
import { startTestDaemon, type TestDaemon } from "../testing/daemon";
import { loadFirstScreen } from "./first-screen";
import { withFirstScreen, withTheme } from "./static-site";

const top = mkdtempSync(join(tmpdir(), "tideline-first-screen-"));
const dist = join(top, "dist");
mkdirSync(dist, { recursive: true });
const index = `<!doctype html><html><head><title>Tideline</title></head><body><div id="root"></div></body></html>`;
writeFileSync(join(dist, "index.html"), index);
afterAll(() => rmSync(top, { recursive: true, force: true }));

const HOSTILE = `<img src=x onerror=alert(1)> **bold** [go](javascript:alert(2))`;

describe("a session link's first screen", () => {
  let daemon: TestDaemon;
  let sessionId: string;

  beforeAll(async () => {
    daemon = await startTestDaemon({ distDir: dist });
    const session = await daemon.createActiveSession();
    sessionId = session.id;
    expect((await daemon.prompt(sessionId, HOSTILE)).ok).toBe(true);
    await daemon.waitForSession(sessionId, (s) => s.activity === undefined);
  });
  afterAll(() => daemon.stop());

  const page = async (path: string, method = "GET") => {
    const response = await daemon.call(method, path);
    return { response, html: await response.text() };
  };

  it("when a session link is opened, then its newest entries are drawn first in the body, the prompt's Markdown without its raw HTML", async () => {
    const { response, html } = await page(`/w/${daemon.ws}/s/${sessionId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength(html)));
    expect(html).toContain(`<body><div class="`);
    expect(html).toContain(`id="${FIRST_SCREEN_ID}" aria-hidden="true"`);
    expect(html.indexOf(FIRST_SCREEN_ID)).toBeLessThan(html.indexOf(`<div id="root">`));
    expect(html).toContain("<strong>bold</strong>");
    // Raw HTML in Markdown is dropped, as the SPA's renderer drops it.
    const screen = html.slice(html.indexOf(FIRST_SCREEN_ID), html.indexOf(`<div id="root">`));
    expect(screen).not.toContain("<img");
    expect(screen).not.toContain("onerror");
    // The link is not one: no href at all (the demo agent quotes the prompt back as text).
    expect(screen).not.toContain("href");
    expect(html).toMatch(/data-first-screen-entry="\d+"/);
  });

  it("when the person forced a theme, then the page is in it before any script; any other cookie value is ignored", async () => {
    const link = `/w/${daemon.ws}/s/${sessionId}`;
    const themed = async (cookie: string) =>
      (await daemon.call("GET", link, { headers: { Cookie: cookie } })).text();
    expect(await themed("a=1; tideline-theme=dark")).toContain('<html data-theme="dark">');
    expect(await themed("tideline-theme=light")).toContain('<html data-theme="light">');
    for (const cookie of [
      'tideline-theme="><script>',
      "tideline-theme=system",
      "x-tideline-theme=dark",
    ]) {
      expect(await themed(cookie), cookie).toContain("<html><head>");
    }
  });

  it("when the session does not exist, the link is malformed, or the request is a HEAD, then the page is sent without one", async () => {
    for (const path of [`/w/${daemon.ws}/s/ses_nope`, `/w/${daemon.ws}/s/${sessionId}/x`, "/"]) {
      const { response, html } = await page(path);
      expect(response.status, path).toBe(200);
      expect(html, path).not.toContain(FIRST_SCREEN_ID);
    }
    const head = await page(`/w/${daemon.ws}/s/${sessionId}`, "HEAD");
    expect(head.response.status).toBe(200);
    expect(head.html).toBe("");
  });

  it("when the API needs a token, then no page carries one (the page's own request has no token)", async () => {
    const guarded = await startTestDaemon({ distDir: dist, token: "secret-token" });
    try {
      const auth = { Authorization: "Bearer secret-token" };
      const created = await guarded.call("POST", "/api/sessions", {
        body: { workspace: guarded.ws },
        headers: auth,
      });
      const { session } = (await created.json()) as { session: { id: string } };
      const html = await (await guarded.call("GET", `/w/${guarded.ws}/s/${session.id}`)).text();
      expect(html).toContain('<div id="root">');
      expect(html).not.toContain(FIRST_SCREEN_ID);
      expect(html).not.toContain("preload");
    } finally {
      await guarded.stop();
    }
  });
});

describe("placing a first screen in a page", () => {
  it("when a page has a body, then the first screen opens it; with no body or no first screen, the page is unchanged", () => {
    expect(withFirstScreen(`<html><body class="x"><main></main></body></html>`, "<p>1</p>")).toBe(
      `<html><body class="x"><p>1</p><main></main></body></html>`,
    );
    expect(withFirstScreen("<html></html>", "<p>1</p>")).toBe("<html></html>");
    expect(withFirstScreen("<body></body>", undefined)).toBe("<body></body>");
  });
});

describe("the page's theme", () => {
  it("when the cookie names a theme, then the root element carries it, whatever else the tag holds", () => {
    expect(withTheme(`<html lang="en"><body>`, "tideline-theme=dark")).toBe(
      `<html data-theme="dark" lang="en"><body>`,
    );
    expect(withTheme("<html>", undefined)).toBe("<html>");
    expect(withTheme("<htmlx>", "tideline-theme=dark")).toBe("<htmlx>");
  });
});

describe("reading the first screen", () => {
  it("when a read answers with something that is not its JSON, or throws, then there is no first screen and the reason is logged", async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const notJson = async () => new Response("<html>oops</html>", { status: 200 });
    expect(await loadFirstScreen(notJson, "ws_1", "ses_1", log)).toBeUndefined();
    const wrongShape = async () => Response.json({ session: { id: 5 }, entries: "x" });
    expect(await loadFirstScreen(wrongShape, "ws_1", "ses_1", log)).toBeUndefined();
    const failing = async (): Promise<Response> => {
      throw new Error("ledger closed");
    };
    expect(await loadFirstScreen(failing, "ws_1", "ses_1", log)).toBeUndefined();
    expect(lines.some((line) => line.includes("ledger closed"))).toBe(true);
  });
});
