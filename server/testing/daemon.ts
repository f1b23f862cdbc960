// Test support: a whole daemon (real ledger in a temp dir, real demo agent processes at
// speed 0) composed exactly as main.ts does, driven in-process through `app.request()`
// or served on port 0 for the stream tests.

import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import type { DaemonSession as Session } from "../../src/contract/session";
import type { NamedAgent } from "../acp/session-host";
import { type ComposeOptions, composeDaemon, type DaemonParts } from "../config/compose";
import { builtInDemoAgent } from "../config/flags";
import { openLedger } from "../ledger/open-ledger";
import { createSessionToolsServer, type SessionToolsServer } from "../mcp/session-tools";

export type TestDaemon = DaemonParts & {
  dir: string;
  /** The MCP session tools server, when started `withSessionTools`. */
  sessionTools: SessionToolsServer | undefined;
  ws: string;
  /** `app.request` with JSON defaults for POST. */
  call(
    method: string,
    path: string,
    options?: { body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<Response>;
  sessionPath(id: string): string;
  /** What the daemon logged so far (contract breaches, agent stderr). */
  logs(): string[];
  /** Creates a session and waits until it is active with its commands announced. */
  createActiveSession(agent?: string): Promise<Session>;
  /** `POST …/prompt` with fresh message id and idempotency key (or the given key). */
  prompt(id: string, message: string, idempotencyKey?: string): Promise<Response>;
  waitForSession(
    id: string,
    ready: (session: Session) => boolean,
    timeoutMs?: number,
  ): Promise<Session>;
  /** Serves the app on 127.0.0.1:0; returns the base URL. */
  listen(): Promise<string>;
  stop(): Promise<void>;
};

export function demoAgent(dir: string, name = "demo", extra: string[] = []): NamedAgent {
  return { ...builtInDemoAgent(dir, ["--speed", "0", ...extra]), name };
}

export async function startTestDaemon(
  options: Partial<Omit<ComposeOptions, "ledger" | "workspace">> & {
    token?: string;
    /** Reopen the data of an earlier daemon that was `close()`d, not `stop()`ped. */
    dir?: string;
    /** Offer agents the MCP session tools, as `npm start` does. */
    withSessionTools?: boolean;
  } = {},
): Promise<TestDaemon> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "tideline-daemon-"));
  let port: number | undefined;
  const logs: string[] = [];
  const ledger = openLedger(join(dir, "tideline.db"));
  const sessionTools = options.withSessionTools
    ? await createSessionToolsServer({
        store: ledger.store,
        reader: ledger.reader,
        settings: ledger.settings,
        log: (line) => logs.push(line),
      })
    : undefined;
  const parts = composeDaemon({
    ledger,
    ...(sessionTools === undefined ? {} : { sessionTools }),
    workspace: join(dir, "ws"),
    version: "test",
    agentCwd: process.cwd(),
    agents: options.agents ?? [demoAgent(dir)],
    killGraceMs: 500,
    agentGroupsDir: join(dir, "agent-groups"),
    log: (line) => logs.push(line),
    ...options,
    security: options.security ?? {
      allowedHosts: [],
      port: () => port,
      ...(options.token === undefined ? {} : { token: options.token }),
    },
  });
  const ws = parts.workspaceId;
  let server: ReturnType<typeof serve> | undefined;

  const daemon: TestDaemon = {
    ...parts,
    dir,
    sessionTools,
    ws,
    call(method, path, callOptions = {}) {
      const headers: Record<string, string> = { ...callOptions.headers };
      let body: string | undefined = callOptions.rawBody;
      if (callOptions.body !== undefined) body = JSON.stringify(callOptions.body);
      if (body !== undefined && headers["Content-Type"] === undefined) {
        headers["Content-Type"] = "application/json";
      }
      return Promise.resolve(
        // Once listening, the Host rule expects the bound port even in-process.
        parts.app.request(port === undefined ? path : `http://127.0.0.1:${port}${path}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body }),
        }),
      );
    },
    sessionPath: (id) => `/api/workspaces/${ws}/sessions/${id}`,
    logs: () => [...logs],
    async createActiveSession(agent) {
      const response = await daemon.call("POST", "/api/sessions", {
        body: agent === undefined ? { workspace: ws } : { workspace: ws, agent_name: agent },
      });
      if (response.status !== 201) throw new Error(`create failed: ${await response.text()}`);
      const { session } = (await response.json()) as { session: Session };
      return daemon.waitForSession(
        session.id,
        (s) => s.state === "active" && s.available_commands.length > 0,
      );
    },
    prompt(id, message, idempotencyKey) {
      return daemon.call("POST", `${daemon.sessionPath(id)}/prompt`, {
        body: {
          message,
          message_id: `msg-${randomUUID()}`,
          idempotency_key: idempotencyKey ?? `idem-${randomUUID()}`,
        },
      });
    },
    waitForSession(id, ready, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const session = parts.host.findSession(id);
          if (session !== undefined && ready(session)) {
            done();
            resolve(session);
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(
              `timed out; session is ${JSON.stringify(parts.host.findSession(id))}\n${logs.join("\n")}`,
            ),
          );
        }, timeoutMs);
        const unsubscribe = parts.host.onSessionChanged((changed) => {
          if (changed === id) check();
        });
        function done() {
          clearTimeout(timer);
          unsubscribe();
        }
        check();
      });
    },
    listen() {
      return new Promise((resolve) => {
        server = serve({ fetch: parts.app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
          port = (info as AddressInfo).port;
          resolve(`http://127.0.0.1:${port}`);
        });
      });
    },
    async stop() {
      await parts.close();
      await new Promise<void>((resolve) => {
        if (server === undefined) return resolve();
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return daemon;
}
