// The daemon's entry: reads flags and env, opens the db, listens, handles signals.
import { mkdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { composeDaemon } from "./config/compose";
import { tokenNotices } from "./config/daemon-token";
import { type DaemonConfig, FlagError, parseDaemonFlags } from "./config/flags";
import { DAEMON_VERSION } from "./config/version";
import { ConfigError, type HookDeclaration, loadDaemonConfig } from "./hooks/hook-config";
import { selfBase, warmReadPath } from "./http/warm-up";
import { openLedger } from "./ledger/open-ledger";
import { ensurePrivateDir } from "./ledger/private-files";
import { createSessionToolsServer } from "./mcp/session-tools";
import { serveUpstream } from "./upstream/serve-upstream";
import { ensureWelcomeSession } from "./welcome/welcome-session";

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

function readHooks(path: string | undefined): HookDeclaration[] {
  if (path === undefined) return [];
  try {
    return loadDaemonConfig(path);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`tideline: --config ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}

const config = readConfig();
if (config.upstream === undefined) await serveLocal(config, readHooks(config.configPath));
else if (config.configPath !== undefined) {
  // Hooks observe what this daemon records; an upstream records (and hooks) on its own.
  console.error("tideline: --config (hooks) cannot be combined with --upstream");
  process.exit(2);
} else serveUpstream(config, config.upstream, DAEMON_VERSION, (url) => tokenNotices(config, url));

/** The daemon with its own ledger and agents. */
async function serveLocal(config: DaemonConfig, hooks: readonly HookDeclaration[]) {
  ensurePrivateDir(config.dataDir);
  mkdirSync(config.workspace, { recursive: true });

  let boundPort: number | undefined;
  const ledger = openLedger(join(config.dataDir, "tideline.db"), {
    contextWindows: config.contextWindows,
  });
  // The MCP session tools listen on loopback before any agent can be handed them.
  const sessionTools = config.sessionTools
    ? await createSessionToolsServer({
        store: ledger.store,
        reader: ledger.reader,
        settings: ledger.settings,
        log: (line) => console.error(line),
      })
    : undefined;
  const daemon = composeDaemon({
    ledger,
    ...(sessionTools === undefined ? {} : { sessionTools }),
    agents: config.agents,
    permissions: config.permissions,
    replayBudget: config.replayBudget,
    workspace: config.workspace,
    version: DAEMON_VERSION,
    agentCwd: process.cwd(),
    agentGroupsDir: join(config.dataDir, "agent-groups"),
    distDir: config.distDir,
    validateResponses: process.env.NODE_ENV !== "production",
    hooks,
    ...(config.configPath === undefined ? {} : { configFile: config.configPath }),
    security: {
      allowedHosts: config.allowedHosts,
      port: () => boundPort,
      ...(config.token === undefined ? {} : { token: config.token }),
    },
  });

  const server = serve(
    { fetch: daemon.app.fetch, hostname: config.host, port: config.port },
    (info) => {
      boundPort = (info as AddressInfo).port;
      const url = `http://${config.host}:${boundPort}`;
      void announce(url, selfBase(config.host, boundPort));
    },
  );

  /** Says it listens once the read path is warm, so the first browser is served as fast as any. */
  async function announce(url: string, self: string) {
    await warmReadPath((path, init) => fetch(`${self}${path}`, init), ledger.store, {
      token: config.token,
      log: (line) => console.error(line),
    });
    console.error(`tideline ${DAEMON_VERSION} listening on ${url}`);
    for (const line of tokenNotices(config, url)) console.error(line);
    if (hooks.length > 0) {
      console.error(`tideline: ${hooks.length} hook(s) from ${config.configPath}`);
    }
    if (config.welcome) {
      ensureWelcomeSession({
        host: daemon.host,
        store: daemon.ledger.store,
        workspaceId: daemon.workspaceId,
      }).catch((error: unknown) => console.error(`tideline: welcome session: ${String(error)}`));
    }
  }

  server.on("error", (error: NodeJS.ErrnoException) => {
    // EADDRINUSE and friends: one clear line instead of an uncaught exception's stack.
    console.error(`tideline: cannot listen on ${config.host}:${config.port}: ${error.message}`);
    void daemon.close().finally(() => process.exit(1));
  });

  let shuttingDown = false;
  async function shutdown(signal: string) {
    if (shuttingDown) return;
    shuttingDown = true;
    console.error(`tideline: ${signal}, shutting down`);
    const forced = setTimeout(() => process.exit(1), 8000);
    forced.unref();
    server.close();
    await daemon.close();
    process.exit(0);
  }
  // Whatever way the daemon exits (a forced exit, an uncaught error), no agent tree outlives
  // it; after a clean shutdown there is nothing left to signal.
  process.on("exit", () => daemon.host.killAllNow());
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  // Agents lead their own process groups, so a closed terminal's hangup no longer reaches
  // them directly: the daemon takes it as a shutdown and ends them.
  process.on("SIGHUP", () => void shutdown("SIGHUP"));
}
