// The MCP server one authenticated caller talks to: `tideline__session_history` (a
// session's stored messages, paged, newest first) and `tideline__session_compact` (Compact
// now on an idle session). Refusals carry the same code and message text as the HTTP API.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "../../src/contract/zod";
import type { SessionHost } from "../acp/session-host";
import { SessionRefusal } from "../acp/session-refusal";
import { HISTORY_TOOL, replayMessageOf } from "../domain/bounded-replay";
import type { SessionReader } from "../domain/session-recorder-api";
import { historyReadable, reachable, type ToolAccessDeps } from "./tool-access";
import type { Caller } from "./tool-callers";

export { HISTORY_TOOL };
export const COMPACT_TOOL = "tideline__session_compact";
export const MCP_SERVER_NAME = "tideline";
const HISTORY_DEFAULT_LIMIT = 50;

export type ToolSetDeps = ToolAccessDeps & {
  reader: SessionReader;
  /** The session host, once attached; throws before. */
  host(): SessionHost;
};

function toolError(toolId: string, code: string, message: string): CallToolResult {
  const body = { code, tool_id: toolId, message };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
}

function toolResult(body: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
}

type HistoryArgs = {
  session_id?: string | undefined;
  limit?: number | undefined;
  before_sequence?: number | undefined;
};

function readHistory(deps: ToolSetDeps, caller: Caller, args: HistoryArgs): CallToolResult {
  const sessionId = args.session_id ?? caller.sessionId;
  if (!historyReadable(deps, caller, sessionId)) {
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
}

function compactSession(deps: ToolSetDeps, caller: Caller, sessionId: string): CallToolResult {
  if (reachable(deps.store, caller, sessionId) === undefined) {
    return toolError(COMPACT_TOOL, "not_found", "session not found");
  }
  try {
    const accepted = deps.host().compact(sessionId, caller.workspaceId, "tool");
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
}

/** A new MCP server with both tools, bound to `caller`. */
export function toolsFor(deps: ToolSetDeps, caller: Caller): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version: "1" });
  server.registerTool(
    HISTORY_TOOL,
    {
      description:
        "Read the stored messages of your Tideline session (the default) or of the session it was continued or forked from, newest page first. Use it for messages a context replay left out.",
      inputSchema: {
        session_id: z.optional(z.string().check(z.minLength(1)).check(z.maxLength(200))),
        limit: z.optional(z.int().check(z.gte(1)).check(z.lte(200))),
        before_sequence: z.optional(z.int().check(z.gte(1))),
      },
      annotations: { readOnlyHint: true },
    },
    (args) => readHistory(deps, caller, args),
  );
  server.registerTool(
    COMPACT_TOOL,
    {
      description:
        "Ask the agent of an idle Tideline session in your workspace to compact its context (Compact now).",
      inputSchema: { session_id: z.string().check(z.minLength(1)).check(z.maxLength(200)) },
    },
    (args) => compactSession(deps, caller, args.session_id),
  );
  return server;
}
