// The session tools an agent gets over MCP (ADR 0088): `tideline__session_history` reads a
// session's stored messages, paged; `tideline__session_compact` asks for Compact now on an
// idle session. One HTTP listener on loopback; each agent session is handed its own secret
// in `session/new`, and the secret decides who calls: a caller reaches only the sessions of
// its own workspace. Refusals carry the same code and message text as the HTTP API.
// The secrets are tool-callers.ts, the reach tool-access.ts, the tools session-tool-set.ts
// and one request's handling tool-request.ts; this file is the listener.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServerEntry, SessionHost, SessionToolsOffer } from "../acp/session-host";
import type {
  SessionReader,
  SessionSettingsStore,
  SessionStore,
} from "../domain/session-recorder-api";
import { MCP_SERVER_NAME, toolsFor } from "./session-tool-set";
import { type Caller, createToolCallers } from "./tool-callers";
import { handleToolRequest } from "./tool-request";

export { COMPACT_TOOL, HISTORY_TOOL } from "./session-tool-set";

export type SessionToolsServer = SessionToolsOffer & {
  readonly url: string;
  /** The host is made after the offer it is given; tool calls wait for this. */
  attach(host: SessionHost): void;
  /** Forget a session's secret (its agent is gone). */
  revoke(sessionId: string): void;
  close(): Promise<void>;
};

export type SessionToolsDeps = {
  store: SessionStore;
  reader: SessionReader;
  /** Lineage and history scope; without it the history tool reads the caller's own session. */
  settings?: Pick<SessionSettingsStore, "derivationOf" | "historyScopeOf">;
  log: (line: string) => void;
};

export function createSessionToolsServer(deps: SessionToolsDeps): Promise<SessionToolsServer> {
  const callers = createToolCallers(deps.store);
  let attached: SessionHost | undefined;
  const toolDeps = {
    store: deps.store,
    reader: deps.reader,
    settings: deps.settings,
    host(): SessionHost {
      if (attached === undefined) throw new Error("session tools: no host attached");
      return attached;
    },
  };
  const tools = {
    callerOf: callers.callerOf,
    toolsFor: (caller: Caller) => toolsFor(toolDeps, caller),
  };

  const http: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const host = request.headers.host ?? "";
    // Loopback callers only, and no browser page pretending to be one (DNS rebinding).
    if (path !== "/mcp" || !/^127\.0\.0\.1:\d+$/.test(host) || request.headers.origin) {
      response.writeHead(path === "/mcp" ? 403 : 404).end();
      return;
    }
    handleToolRequest(request, response, tools).catch((error: unknown) => {
      deps.log(`[mcp] request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });

  return new Promise((resolve, reject) => {
    http.once("error", reject);
    http.listen(0, "127.0.0.1", () => {
      const { port } = http.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}/mcp`;
      resolve({
        url,
        attach(sessionHost) {
          attached = sessionHost;
        },
        serverFor(sessionId, workspaceId): McpServerEntry {
          const secret = callers.issue(sessionId, workspaceId);
          return {
            type: "http",
            name: MCP_SERVER_NAME,
            url,
            headers: [{ name: "Authorization", value: `Bearer ${secret}` }],
          };
        },
        revoke: callers.revoke,
        close() {
          return new Promise<void>((done) => {
            http.close(() => done());
            http.closeAllConnections();
          });
        },
      });
    });
  });
}
