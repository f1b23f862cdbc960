// The daemon's entry: reads flags and env, opens the db, listens, handles signals.
import { mkdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApp } from "./app";
import { FlagError, parseDaemonFlags } from "./config/flags";
import { DAEMON_VERSION } from "./config/version";

function readConfig() {
  try {
    return parseDaemonFlags(process.argv.slice(2), process.env, process.cwd());
  } catch (error) {
    if (error instanceof FlagError) {
      console.error(`tideline: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}

const config = readConfig();
mkdirSync(config.dataDir, { recursive: true });
mkdirSync(config.workspace, { recursive: true });

let boundPort: number | undefined;
const app = createApp({
  version: DAEMON_VERSION,
  security: {
    allowedHosts: config.allowedHosts,
    port: () => boundPort,
    ...(config.token === undefined ? {} : { token: config.token }),
  },
  distDir: config.distDir,
});

const server = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, (info) => {
  boundPort = (info as AddressInfo).port;
  console.error(`tideline ${DAEMON_VERSION} listening on http://${config.host}:${boundPort}`);
});

let shuttingDown = false;
function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.error(`tideline: ${signal}, shutting down`);
  server.close(() => process.exit(0));
  // Open streams keep connections alive; do not wait for them forever.
  setTimeout(() => process.exit(0), 3000).unref();
}
process.on("SIGINT", () => shutdown("SIGINT"));
process.on("SIGTERM", () => shutdown("SIGTERM"));
