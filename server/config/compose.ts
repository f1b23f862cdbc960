// Wires the daemon's parts around an open ledger: the agent host, the stream hub and the
// HTTP app. Shared by main.ts and the tests so both run the same assembly.
import type { Hono } from "hono";
import { KEEPALIVE_MS } from "../../src/contract/stream";
import { createAgentGroupRegistry, reapLeftoverGroups } from "../acp/agent-groups";
import type { PermissionPolicy } from "../acp/permission-broker";
import { createSessionHost, type NamedAgent, type SessionHost } from "../acp/session-host";
import { createApp } from "../app";
import type { ReplayBudget } from "../domain/bounded-replay";
import type { Ledger } from "../domain/session-recorder-api";
import { startCompactionHooks } from "../hooks/compaction-hooks";
import type { HookDeclaration } from "../hooks/hook-config";
import type { SecurityOptions } from "../http/security";
import { createStreamHub, type StreamHub } from "../http/session-stream";
import type { SessionToolsServer } from "../mcp/session-tools";

/** CompozyOS's keepalive interval (session_stream_live.go), the contract's KEEPALIVE_MS. */
export const DEFAULT_KEEPALIVE_MS = KEEPALIVE_MS;

export type DaemonParts = {
  app: Hono;
  host: SessionHost;
  streams: StreamHub;
  ledger: Ledger;
  workspaceId: string;
  /** Stops agents, closes streams, closes the db. */
  close(): Promise<void>;
};

export type ComposeOptions = {
  ledger: Ledger;
  agents: readonly NamedAgent[];
  workspace: string;
  version: string;
  security: SecurityOptions;
  agentCwd: string;
  distDir?: string;
  keepaliveMs?: number;
  initializeTimeoutMs?: number;
  permissions?: PermissionPolicy;
  killGraceMs?: number;
  /** Where running agent process groups are recorded (in the data dir), for reaping. */
  agentGroupsDir?: string;
  maxQueuedBytes?: number;
  validateResponses?: boolean;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** Compaction hooks from `--config` (ADR 0081). */
  hooks?: readonly HookDeclaration[];
  /** The `--config` file, reported by `GET /api/status`. */
  configFile?: string;
  replayBudget?: ReplayBudget;
  /** The MCP session tools offered to agents (started by the caller: it listens). */
  sessionTools?: SessionToolsServer;
};

export function composeDaemon(options: ComposeOptions): DaemonParts {
  const log = options.log ?? ((line: string) => console.error(line));
  const { ledger } = options;
  const workspace = ledger.store.ensureWorkspace(options.workspace, basename(options.workspace));
  const groupsDir = options.agentGroupsDir;
  if (groupsDir !== undefined) {
    // Before any agent of this daemon starts: only a dead daemon's groups can be found.
    reapLeftoverGroups(groupsDir, {
      log,
      ...(options.killGraceMs === undefined ? {} : { graceMs: options.killGraceMs }),
    });
  }
  // Listening before anything records, so the close of compactions a crash left open fires too.
  const hooks = startCompactionHooks({
    declarations: options.hooks ?? [],
    recorder: ledger.recorder,
    store: ledger.store,
    reader: ledger.reader,
    log,
  });
  const host = createSessionHost({
    ledger,
    agents: options.agents,
    version: options.version,
    agentCwd: options.agentCwd,
    log,
    ...(options.initializeTimeoutMs === undefined
      ? {}
      : { initializeTimeoutMs: options.initializeTimeoutMs }),
    ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
    ...(options.permissions === undefined ? {} : { permissions: options.permissions }),
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(groupsDir === undefined ? {} : { groups: createAgentGroupRegistry(groupsDir) }),
    ...(options.replayBudget === undefined ? {} : { replayBudget: options.replayBudget }),
    ...(options.sessionTools === undefined ? {} : { sessionTools: options.sessionTools }),
  });
  options.sessionTools?.attach(host);
  host.recoverInterrupted();
  const validate = options.validateResponses ?? true;
  const streams = createStreamHub({
    store: ledger.store,
    reader: ledger.reader,
    recorder: ledger.recorder,
    host,
    keepaliveMs: options.keepaliveMs ?? DEFAULT_KEEPALIVE_MS,
    validate,
    log,
    ...(options.maxQueuedBytes === undefined ? {} : { maxQueuedBytes: options.maxQueuedBytes }),
  });
  const app = createApp({
    version: options.version,
    security: options.security,
    sessions: { ledger, host, streams },
    validateResponses: validate,
    configFile: options.configFile,
    log,
    ...(options.distDir === undefined ? {} : { distDir: options.distDir }),
  });
  let closing: Promise<void> | undefined;
  return {
    app,
    host,
    streams,
    ledger,
    workspaceId: workspace.id,
    close() {
      closing ??= (async () => {
        streams.closeAll();
        await host.shutdown();
        await hooks.close();
        await options.sessionTools?.close();
        ledger.close();
      })();
      return closing;
    },
  };
}

function basename(path: string): string {
  const parts = path.split(/[\\/]/).filter((part) => part !== "");
  return parts[parts.length - 1] ?? path;
}
