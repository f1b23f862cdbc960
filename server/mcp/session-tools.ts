// The session tools an agent gets over MCP (ADR 0088): `tideline__session_history` reads a
// session's stored messages, paged; `tideline__session_compact` asks for Compact now on an
// idle session. One HTTP listener on loopback; each agent session is handed its own secret
// in `session/new`, and the secret decides who calls: a caller reaches only the sessions of
// its own workspace. Refusals carry the same code and message text as the HTTP API.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { McpServerEntry, SessionHost, SessionToolsOffer } from "../acp/session-host";
import { SessionRefusal } from "../acp/session-refusal";
import { HISTORY_TOOL, replayMessageOf } from "../domain/bounded-replay";
import type {
  SessionReader,
  SessionSettingsStore,
  SessionStore,
} from "../domain/session-recorder-api";

export { HISTORY_TOOL };
export const COMPACT_TOOL = "tideline__session_compact";
export const MCP_SERVER_NAME = "tideline";
const MAX_BODY_BYTES = 64 * 1024;
const HISTORY_DEFAULT_LIMIT = 50;

type Caller = { sessionId: string; workspaceId: string; secret: Buffer };

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

function toolError(toolId: string, code: string, message: string): CallToolResult {
  const body = { code, tool_id: toolId, message };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
}

function toolResult(body: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
}

export function createSessionToolsServer(deps: SessionToolsDeps): Promise<SessionToolsServer> {
  const callers = new Map<string, Caller>();
  let attached: SessionHost | undefined;
  function host(): SessionHost {
    if (attached === undefined) throw new Error("session tools: no host attached");
    return attached;
  }

  function callerOf(request: IncomingMessage): Caller | undefined {
    const header = request.headers.authorization ?? "";
    const match = /^Bearer ([A-Za-z0-9_-]{43})$/.exec(header);
    if (match?.[1] === undefined) return undefined;
    const given = Buffer.from(match[1]);
    for (const caller of callers.values()) {
      if (caller.secret.length === given.length && timingSafeEqual(caller.secret, given)) {
        // A deleted session's secret is dead even if a revoke was missed.
        return deps.store.getSession(caller.sessionId) === undefined ? undefined : caller;
      }
    }
    return undefined;
  }

  /**
   * Whether the caller's agent may read `sessionId`'s history: its own session and the
   * sessions it was continued or forked from, unless its scope was widened to the
   * workspace (ADR 0173). A session made with `session_tools: false` is not a reader's
   * business just because it shares a workspace.
   */
  function historyReadable(caller: Caller, sessionId: string): boolean {
    if (reachable(caller, sessionId) === undefined) return false;
    if (sessionId === caller.sessionId) return true;
    if (deps.settings === undefined) return false;
    if (deps.settings.historyScopeOf(caller.sessionId) === "workspace") return true;
    const seen = new Set<string>([caller.sessionId]);
    let current = deps.settings.derivationOf(caller.sessionId);
    while (current !== undefined && !seen.has(current.sourceSessionId)) {
      if (current.sourceSessionId === sessionId) return true;
      seen.add(current.sourceSessionId);
      current = deps.settings.derivationOf(current.sourceSessionId);
    }
    return false;
  }

  /** The session, if the caller may reach it: same workspace only. */
  function reachable(caller: Caller, sessionId: string) {
    const found = deps.store.getSession(sessionId);
    return found !== undefined && found.workspace_id === caller.workspaceId ? found : undefined;
  }

  function toolsFor(caller: Caller): McpServer {
    const server = new McpServer({ name: MCP_SERVER_NAME, version: "1" });
    server.registerTool(
      HISTORY_TOOL,
      {
        description:
          "Read the stored messages of your Tideline session (the default) or of the session it was continued or forked from, newest page first. Use it for messages a context replay left out.",
        inputSchema: {
          session_id: z.string().min(1).max(200).optional(),
          limit: z.number().int().min(1).max(200).optional(),
          before_sequence: z.number().int().min(1).optional(),
        },
        annotations: { readOnlyHint: true },
      },
      (args) => {
        const sessionId = args.session_id ?? caller.sessionId;
        if (!historyReadable(caller, sessionId)) {
          return toolError(HISTORY_TOOL, "not_found", "session not found");
        }
        const page = deps.reader.transcriptPage(sessionId, {
          limit: args.limit ?? HISTORY_DEFAULT_LIMIT,
          ...(args.before_sequence === undefined ? {} : { beforeSequence: args.before_sequence }),
        });
        const messages = page.entries.flatMap((entry) => {
          const message = replayMessageOf(entry.message);
          return message === undefined ? [] : [{ sequence: entry.start_sequence, ...message }];
        });
        return toolResult({
          session_id: sessionId,
          messages,
          has_older: page.has_older,
          ...(page.next_before_sequence === undefined
            ? {}
            : { next_before_sequence: page.next_before_sequence }),
        });
      },
    );
    server.registerTool(
      COMPACT_TOOL,
      {
        description:
          "Ask the agent of an idle Tideline session in your workspace to compact its context (Compact now).",
        inputSchema: { session_id: z.string().min(1).max(200) },
      },
      (args) => {
        if (reachable(caller, args.session_id) === undefined) {
          return toolError(COMPACT_TOOL, "not_found", "session not found");
        }
        try {
          const accepted = host().compact(args.session_id, caller.workspaceId, "tool");
          return toolResult({
            session_id: accepted.sessionId,
            prompt_id: accepted.turnId,
            command: accepted.command,
            status: "accepted",
          });
        } catch (error) {
          if (error instanceof SessionRefusal) {
            // A stopped or starting session is the caller's mistake: invalid input.
            const code = error.code === "session_not_promptable" ? "invalid_input" : error.code;
            return toolError(COMPACT_TOOL, code, error.message);
          }
          throw error;
        }
      },
    );
    return server;
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const caller = callerOf(request);
    if (caller === undefined) {
      response.writeHead(401, { "Content-Type": "application/json" });
      response.end(JSON.stringify({ error: "unauthorized", code: "unauthorized" }));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        response.writeHead(413, { "Content-Type": "application/json" });
        response.end(JSON.stringify({ error: "request body too large", code: "invalid_request" }));
        return;
      }
      chunks.push(chunk as Buffer);
    }
    let body: unknown;
    if (size > 0) {
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        response.writeHead(400, { "Content-Type": "application/json" });
        response.end(
          JSON.stringify({ error: "request body is not valid JSON", code: "invalid_request" }),
        );
        return;
      }
    }
    // Stateless: one server and transport per request, bound to the caller it authenticated.
    // No sessionIdGenerator: stateless mode.
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    const server = toolsFor(caller);
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  }

  const http: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const host = request.headers.host ?? "";
    // Loopback callers only, and no browser page pretending to be one (DNS rebinding).
    if (path !== "/mcp" || !/^127\.0\.0\.1:\d+$/.test(host) || request.headers.origin) {
      response.writeHead(path === "/mcp" ? 403 : 404).end();
      return;
    }
    handle(request, response).catch((error: unknown) => {
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
          // A new secret for every agent session: an old agent's secret stops working.
          const secret = randomBytes(32).toString("base64url");
          callers.set(sessionId, { sessionId, workspaceId, secret: Buffer.from(secret) });
          return {
            type: "http",
            name: MCP_SERVER_NAME,
            url,
            headers: [{ name: "Authorization", value: `Bearer ${secret}` }],
          };
        },
        revoke(sessionId) {
          callers.delete(sessionId);
        },
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
