// Everything one session sends goes through here: typed session updates through the SDK, and
// (for `bad-frame` only) a raw line the SDK would refuse to build. Every send is awaited, so
// the order frames are sent in is the order they reach the wire.
import {
  type AgentContext,
  methods,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import type { AgentWire } from "./wire";

export type SessionChannel = {
  readonly sessionId: string;
  send(update: SessionUpdate): Promise<void>;
  /** A `session/update` notification whose `update` skips the SDK (and its schema). */
  sendUnchecked(update: Record<string, unknown>): Promise<void>;
  /** `session/request_permission`: resolves with the person's answer (or `cancelled`). */
  requestPermission(
    params: Omit<RequestPermissionRequest, "sessionId">,
  ): Promise<RequestPermissionResponse>;
};

export function createSessionChannel(
  client: AgentContext,
  wire: AgentWire,
  sessionId: string,
): SessionChannel {
  return {
    sessionId,
    send: (update) => client.notify(methods.client.session.update, { sessionId, update }),
    requestPermission: (params) =>
      client.request(methods.client.session.requestPermission, { sessionId, ...params }),
    sendUnchecked: (update) =>
      wire.writeRawLine({
        jsonrpc: "2.0",
        method: methods.client.session.update,
        params: { sessionId, update },
      }),
  };
}

export function textBlock(text: string) {
  return { type: "text", text } as const;
}
