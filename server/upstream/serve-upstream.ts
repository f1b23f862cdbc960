// main.ts in upstream mode: listens, says where /api goes, handles signals. Nothing is
// opened on disk: the upstream daemon owns sessions, ledger and agents.
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createUpstreamApp } from "./upstream-app";
import type { UpstreamTarget } from "./upstream-target";

/** What upstream mode needs of the daemon's configuration (config builds it; no import back). */
export type UpstreamListen = {
  host: string;
  port: number;
  distDir: string;
  allowedHosts: readonly string[];
  token?: string;
};

export function serveUpstream(
  config: UpstreamListen,
  upstream: UpstreamTarget,
  version: string,
  /** Lines to log once the URL is known (config's token notices; no import of config here). */
  startupNotices: (url: string) => string[] = () => [],
) {
  let boundPort: number | undefined;
  const { app, proxy } = createUpstreamApp({
    upstream,
    distDir: config.distDir,
    security: {
      allowedHosts: config.allowedHosts,
      port: () => boundPort,
      ...(config.token === undefined ? {} : { token: config.token }),
    },
  });

  const server = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, (info) => {
    boundPort = (info as AddressInfo).port;
    console.error(
      `tideline ${version} listening on http://${config.host}:${boundPort} (upstream mode: forwarding /api to ${upstream.url.origin}${upstream.token === undefined ? "" : " with a bearer token"})`,
    );
    for (const line of startupNotices(`http://${config.host}:${boundPort}`)) {
      console.error(line);
    }
    void proxy.describe().then((line) => console.error(`tideline: upstream ${line}`));
  });

  server.on("error", (error: NodeJS.ErrnoException) => {
    console.error(`tideline: cannot listen on ${config.host}:${config.port}: ${error.message}`);
    proxy.close();
    process.exit(1);
  });

  let shuttingDown = false;
  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    console.error(`tideline: ${signal}, shutting down`);
    const forced = setTimeout(() => process.exit(1), 8000);
    forced.unref();
    proxy.close();
    server.close(() => process.exit(0));
    // Open streams would hold close() forever; the upstream sees each one end.
    if ("closeAllConnections" in server) server.closeAllConnections();
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}
