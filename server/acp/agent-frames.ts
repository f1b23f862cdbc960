// What one line of an agent's stdout is, decided without state: blank, not JSON-RPC, a
// `session/update` notification, another request or notification from the agent, or a
// response to a request. The tap (agent-tap.ts) then handles each kind in order.
import { isJsonObject, type JsonObject } from "../../src/contract/json-value";

export type AgentFrame =
  | { kind: "blank" }
  | { kind: "invalid"; reason: string }
  | { kind: "update"; params: unknown }
  | { kind: "call"; method: string; id: unknown; params: unknown }
  | { kind: "response"; key: string; message: JsonObject };

/** The contract's plain-object guard, under the name the tap reads it by. */
export { isJsonObject as isObject };

/** JSON-RPC ids by type and value, so `1` and `"1"` are different requests. */
export function requestIdKey(id: unknown): string | undefined {
  return typeof id === "string" || typeof id === "number" ? `${typeof id}:${id}` : undefined;
}

export function classifyFrame(line: string, updateMethod: string): AgentFrame {
  if (line.trim() === "") return { kind: "blank" };
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch (error) {
    return {
      kind: "invalid",
      reason: `not JSON: ${error instanceof Error ? error.message : error}`,
    };
  }
  if (!isJsonObject(message) || message.jsonrpc !== "2.0") {
    return { kind: "invalid", reason: "not a JSON-RPC 2.0 message" };
  }
  if (typeof message.method === "string") {
    if (message.method === updateMethod && message.id === undefined) {
      return { kind: "update", params: message.params };
    }
    return { kind: "call", method: message.method, id: message.id, params: message.params };
  }
  const key = requestIdKey(message.id);
  if (key === undefined || (!("result" in message) && !("error" in message))) {
    return { kind: "invalid", reason: "JSON-RPC message is neither a request nor a response" };
  }
  return { kind: "response", key, message };
}

export function describeRpcError(error: unknown): string {
  if (isJsonObject(error)) {
    const code = typeof error.code === "number" ? ` (${error.code})` : "";
    return `${typeof error.message === "string" ? error.message : "agent error"}${code}`;
  }
  return "agent error";
}
