// `/demo tool <name> [json arguments]`: the demo agent calls a tool of the MCP servers the
// client gave it in `session/new` / `session/load` (the daemon's session tools), over the
// real MCP HTTP transport, and shows the call as a tool call with its result.

import type { McpServer } from "@agentclientprotocol/sdk";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { isJsonObject } from "../../src/contract/json-value";
import type { ToolStep } from "./replies";

export type ToolRequest = { name: string; args: Record<string, unknown> };

/** The argument of `/demo tool …`, or why it cannot be called. */
export function parseToolRequest(argument: string): ToolRequest | string {
  const match = /^tool\s+([\w.-]+)(?:\s+([\s\S]+))?$/.exec(argument.trim());
  if (match?.[1] === undefined) return "usage: /demo tool <name> [json arguments]";
  if (match[2] === undefined) return { name: match[1], args: {} };
  try {
    const args: unknown = JSON.parse(match[2]);
    if (!isJsonObject(args)) return "the arguments must be a JSON object";
    return { name: match[1], args };
  } catch {
    return "the arguments are not valid JSON";
  }
}

type ToolText = { text: string; failed: boolean };

/** Calls the tool on the first HTTP server that lists it. */
export async function callSessionTool(
  servers: readonly McpServer[],
  request: ToolRequest,
): Promise<ToolText> {
  const http = servers.filter((server) => "type" in server && server.type === "http");
  if (http.length === 0) return { text: "no MCP server was given to this session", failed: true };
  for (const server of http) {
    if (!("url" in server)) continue;
    const headers = Object.fromEntries(server.headers.map((h) => [h.name, h.value]));
    const client = new Client({ name: "tideline-demo-agent", version: "0.1.0" });
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers },
    });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      if (!tools.some((tool) => tool.name === request.name)) continue;
      const result = await client.callTool({ name: request.name, arguments: request.args });
      const content = Array.isArray(result.content) ? result.content : [];
      const text = content
        .map((block) => (block.type === "text" ? String(block.text) : `[${block.type}]`))
        .join("\n");
      return { text, failed: result.isError === true };
    } catch (error) {
      return { text: error instanceof Error ? error.message : String(error), failed: true };
    } finally {
      await client.close().catch(() => {});
    }
  }
  return { text: `no MCP server offers ${request.name}`, failed: true };
}

export function toolStep(request: ToolRequest, outcome: ToolText): ToolStep {
  return {
    title: request.name,
    toolKind: "other",
    input: Object.fromEntries(
      Object.entries(request.args).map(([key, value]) => [key, JSON.stringify(value)]),
    ),
    output: outcome.text,
    fails: outcome.failed,
  };
}
