// One HTTP request to the session tools: authenticated by its bearer secret, its JSON body
// read within a bound, then answered statelessly by a fresh MCP server and transport bound
// to the caller it authenticated.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Caller } from "./tool-callers";

const MAX_BODY_BYTES = 64 * 1024;

function refuseJson(response: ServerResponse, status: number, error: string, code: string) {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify({ error, code }));
}

/** The request's JSON body (undefined when empty); a refusal is written when not read. */
async function readBody(
  request: IncomingMessage,
  response: ServerResponse,
): Promise<{ body: unknown } | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      refuseJson(response, 413, "request body too large", "invalid_request");
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return { body: undefined };
  try {
    return { body: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
  } catch {
    refuseJson(response, 400, "request body is not valid JSON", "invalid_request");
    return undefined;
  }
}

export async function handleToolRequest(
  request: IncomingMessage,
  response: ServerResponse,
  tools: {
    callerOf(request: IncomingMessage): Caller | undefined;
    toolsFor(caller: Caller): McpServer;
  },
): Promise<void> {
  const caller = tools.callerOf(request);
  if (caller === undefined) {
    refuseJson(response, 401, "unauthorized", "unauthorized");
    return;
  }
  const read = await readBody(request, response);
  if (read === undefined) return;
  // Stateless: one server and transport per request, bound to the caller it authenticated.
  // No sessionIdGenerator: stateless mode.
  const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
  const server = tools.toolsFor(caller);
  response.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response, read.body);
}
