// The requests the daemon sends an agent over ACP, each handshake step bounded in time.
import { type ClientConnection, methods } from "@agentclientprotocol/sdk/unstable";
import type { AgentProcess } from "./agent-process";

class HandshakeTimeoutError extends Error {
  override name = "HandshakeTimeoutError";
}

function describeDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * A handshake step the agent never answers would leave the session `starting` forever;
 * it fails instead, and the host stops the agent with this reason.
 */
async function answeredWithin<T>(method: string, timeoutMs: number, request: Promise<T>) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new HandshakeTimeoutError(
            `agent did not answer ${method} within ${describeDuration(timeoutMs)}`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([request, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export type AgentRequests = Pick<
  AgentProcess,
  "initialize" | "newSession" | "loadSession" | "setMode" | "setConfigOption" | "prompt" | "cancel"
>;

export function agentRequests(
  agent: ClientConnection["agent"],
  tap: { beginLoad(acpSessionId: string): void },
): AgentRequests {
  return {
    initialize(version, timeoutMs) {
      return answeredWithin(
        "initialize",
        timeoutMs,
        agent.request(methods.agent.initialize, {
          protocolVersion: 1,
          clientInfo: { name: "tideline", version },
          clientCapabilities: {
            fs: { readTextFile: false, writeTextFile: false },
            terminal: false,
            session: { compaction: {}, notices: {} },
          },
        }),
      );
    },
    async newSession(cwd, timeoutMs, mcpServers = []) {
      return await answeredWithin(
        "session/new",
        timeoutMs,
        agent.request(methods.agent.session.new, { cwd, mcpServers: [...mcpServers] }),
      );
    },
    async loadSession(acpSessionId, cwd, timeoutMs, mcpServers = []) {
      // Muted until the answer's line (frames of the turns after it are this agent's).
      tap.beginLoad(acpSessionId);
      return await answeredWithin(
        "session/load",
        timeoutMs,
        agent.request(methods.agent.session.load, {
          sessionId: acpSessionId,
          cwd,
          mcpServers: [...mcpServers],
        }),
      );
    },
    prompt(acpSessionId, text) {
      agent
        .request(methods.agent.session.prompt, {
          sessionId: acpSessionId,
          prompt: [{ type: "text", text }],
        })
        .catch(() => {
          // The tap reports the answer (or the exit handler ends the turn).
        });
    },
    async setMode(acpSessionId, modeId) {
      await agent.request(methods.agent.session.setMode, { sessionId: acpSessionId, modeId });
    },
    async setConfigOption(acpSessionId, configId, value) {
      const response = await agent.request(
        methods.agent.session.setConfigOption,
        typeof value === "boolean"
          ? { sessionId: acpSessionId, configId, type: "boolean", value }
          : { sessionId: acpSessionId, configId, value },
      );
      return (response as { configOptions?: unknown } | undefined)?.configOptions;
    },
    async cancel(acpSessionId) {
      await agent.notify(methods.agent.session.cancel, { sessionId: acpSessionId });
    },
  };
}
