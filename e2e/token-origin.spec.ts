// The token never leaves the page's origin: the SPA on the Vite dev server (the audit's
// case) and on the daemon, opened through a crafted `?api=` link to another origin that
// would gladly take it (permissive CORS), keeps talking only to itself with the token, and
// the other origin sees nothing. Real daemon (`--token auto`), real Vite, real Chromium.
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { createServer as createViteServer, type ViteDevServer } from "vite";
import { demoAgentFlag } from "./daemon";
import { test as base, expect } from "./fixtures";

/** Port of the dev server in this spec (this worktree's own, never 4820 or 5173). */
const DEV_PORT = 4838;
const ROOT = resolve(import.meta.dirname, "..");

type Taker = { url: string; seen: { method: string; url: string; auth?: string }[] };

const test = base.extend<{ taker: Taker }, { devServer: ViteDevServer }>({
  daemonArgs: [
    ["--agent", demoAgentFlag(), "--token", "auto", "--allowed-host", `localhost:${DEV_PORT}`],
    { scope: "worker" },
  ],
  devServer: [
    async ({ daemon }, use) => {
      process.env.TIDELINE_DAEMON = daemon.url;
      const server = await createViteServer({
        root: ROOT,
        configFile: resolve(ROOT, "vite.config.ts"),
        logLevel: "warn",
        server: { port: DEV_PORT, strictPort: true, host: "localhost" },
      });
      await server.listen();
      await use(server);
      await server.close();
    },
    { scope: "worker" },
  ],
  // Another origin that accepts anything from anyone: what a token thief would run.
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  taker: async ({}, use) => {
    const seen: Taker["seen"] = [];
    const server: Server = createHttpServer((req, res) => {
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        ...(req.headers.authorization === undefined ? {} : { auth: req.headers.authorization }),
      });
      res.writeHead(200, {
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Headers": "*",
        "Access-Control-Allow-Methods": "*",
        "Content-Type": "application/json",
      });
      res.end('{"sessions":[],"page":{"has_more":false,"limit":100,"total":0}}');
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    await use({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen });
    await new Promise<void>((done) => server.close(() => done()));
  },
});

function tokenOf(log: string): string {
  const token = /#token=([A-Za-z0-9_-]+)/.exec(log)?.[1];
  expect(token, "the daemon prints the URL to open with --token auto").toBeDefined();
  return token ?? "";
}

test.setTimeout(120_000);

test("when the dev-server page is opened with ?api= pointing at another origin, then the token goes only to the dev server and the page works", async ({
  page,
  daemon,
  devServer,
  taker,
}) => {
  expect(devServer.config.server.port).toBe(DEV_PORT);
  const token = tokenOf(daemon.log());
  const withToken: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (request.headers().authorization !== undefined || url.includes("access_token=")) {
      withToken.push(new URL(url).origin);
    }
  });
  const devOrigin = `http://localhost:${DEV_PORT}`;
  const shell = await page.goto(
    `${devOrigin}/?api=${encodeURIComponent(taker.url)}#token=${token}`,
    {
      timeout: 90_000,
    },
  );
  expect(shell?.headers()["content-security-policy"]).toBe("connect-src 'self'");
  const sessions = page.getByRole("navigation", { name: "Sessions" });
  await expect(sessions.getByRole("link", { name: /Welcome to Tideline/ })).toBeVisible({
    timeout: 60_000,
  });
  // A reload keeps working: nothing about the other origin was remembered for the tab.
  await page.reload();
  await expect(sessions.getByRole("link", { name: /Welcome to Tideline/ })).toBeVisible({
    timeout: 30_000,
  });
  await sessions.getByRole("link", { name: /Welcome to Tideline/ }).click();
  await expect(page.getByRole("main", { name: "Session timeline" })).toBeVisible();
  expect(withToken.length).toBeGreaterThan(0);
  expect(new Set(withToken)).toEqual(new Set([devOrigin]));
  expect(taker.seen).toEqual([]);
  await page.screenshot({ path: "test-results/token-origin-dev-server.png" });
});

test("when the daemon's own page is opened with ?api= pointing elsewhere, then it is not broken: sessions load from the daemon", async ({
  page,
  daemon,
  taker,
}) => {
  const token = tokenOf(daemon.log());
  const shell = await page.goto(`/?api=${encodeURIComponent(taker.url)}#token=${token}`);
  expect(shell?.headers()["content-security-policy"]).toContain("default-src 'self'");
  const sessions = page.getByRole("navigation", { name: "Sessions" });
  await expect(sessions.getByRole("link", { name: /Welcome to Tideline/ })).toBeVisible();
  expect(taker.seen).toEqual([]);
});
