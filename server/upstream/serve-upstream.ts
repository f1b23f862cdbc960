// main.ts in upstream mode: listens, says where /api goes, handles signals. Nothing is
// opened on disk: the upstream daemon owns sessions, ledger and agents.
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { tokenNotices } from "../config/daemon-token";
import type { DaemonConfig } from "../config/flags";
import { createUpstreamApp } from "./upstream-app";
import type { UpstreamTarget } from "./upstream-target";

export function serveUpstream(config: DaemonConfig, upstream: UpstreamTarget, version: string) {
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
    for (const line of tokenNotices(config, `http://${config.host}:${boundPort}`)) {
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
