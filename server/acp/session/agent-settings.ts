// The agent's own settings of a running session: ACP `session/set_mode` and
// `session/set_config_option`, each only for a value the agent offered; and the
// configured agents (`GET /api/agents`).
import { createHash } from "node:crypto";
import type { DaemonAgentList } from "../../../src/contract/agent-session";
import type { DaemonSession } from "../../../src/contract/session";
import { refuse } from "../session-refusal";
import type { HostContext } from "./host-context";
import type { SessionView } from "./session-view";
import type { Turns } from "./turns";

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null && "message" in error) {
    return String((error as { message: unknown }).message);
  }
  return String(error);
}

/** Whether `value` is one the option offers; the refusal's details list what is. */
function checkOptionValue(
  option: { kind: string; values?: { value: string }[] | undefined },
  configId: string,
  value: string | boolean,
) {
  const valid =
    option.kind === "boolean"
      ? typeof value === "boolean"
      : typeof value === "string" &&
        (option.values === undefined || option.values.some((entry) => entry.value === value));
  if (!valid) {
    const offered = option.values?.map((entry) => entry.value).join(", ") ?? option.kind;
    throw refuse.invalid(`"${String(value)}" is not a value of "${configId}"`, {
      value: `not offered; the values are: ${offered}`,
    });
  }
}

export function createAgentSettings(ctx: HostContext, parts: { view: SessionView; turns: Turns }) {
  const { reader, recorder, record, deps } = ctx;
  const { view, turns } = parts;
  return {
    defaultAgent(): string | undefined {
      return deps.agents[0]?.name;
    },

    /** `GET /api/agents`: the configured agents, default first. */
    agents(): DaemonAgentList {
      return {
        agents: deps.agents.map((agent, index) => ({
          name: agent.name,
          default: index === 0,
          ...(agent.preset === undefined ? {} : { preset: agent.preset }),
          provider: agent.preset ?? "custom",
          origin: "global" as const,
          prompt: "",
          definition_digest: createHash("sha256")
            .update(JSON.stringify([agent.command, ...agent.args]))
            .digest("hex"),
        })),
      };
    },

    /** `POST …/mode`: ACP `session/set_mode`, for a mode the agent offered. */
    async setMode(
      sessionId: string,
      workspaceId: string | undefined,
      modeId: string,
    ): Promise<DaemonSession> {
      ctx.requireSession(sessionId, workspaceId);
      const { proc, acpSessionId } = turns.liveAgent(sessionId);
      const modes = reader.sessionSettings(sessionId).modes;
      if (modes === undefined || !modes.available_modes.some((mode) => mode.id === modeId)) {
        const offered = modes?.available_modes.map((mode) => mode.id).join(", ") || "none";
        throw refuse.invalid(`the agent does not offer mode "${modeId}"`, {
          mode_id: `not offered; the modes are: ${offered}`,
        });
      }
      try {
        await proc.setMode(acpSessionId, modeId);
      } catch (error) {
        throw refuse.agentFailed(`the agent refused session/set_mode: ${describeError(error)}`);
      }
      record(sessionId, "session.mode", () => recorder.recordModeSet(sessionId, modeId));
      ctx.changed(sessionId);
      return view(ctx.requireSession(sessionId));
    },

    /** `POST …/config`: ACP `session/set_config_option`, for a value the agent offered. */
    async setConfigOption(
      sessionId: string,
      workspaceId: string | undefined,
      configId: string,
      value: string | boolean,
    ): Promise<DaemonSession> {
      ctx.requireSession(sessionId, workspaceId);
      const { proc, acpSessionId } = turns.liveAgent(sessionId);
      const option = reader
        .sessionSettings(sessionId)
        .config_options?.find((candidate) => candidate.id === configId);
      if (option === undefined) {
        throw refuse.invalid(`the agent has no config option "${configId}"`);
      }
      checkOptionValue(option, configId, value);
      let answered: unknown;
      try {
        answered = await proc.setConfigOption(acpSessionId, configId, value);
      } catch (error) {
        throw refuse.agentFailed(
          `the agent refused session/set_config_option: ${describeError(error)}`,
        );
      }
      record(sessionId, "session.config_options", () =>
        Array.isArray(answered)
          ? recorder.recordSessionSetup(sessionId, { configOptions: answered })
          : [],
      );
      ctx.changed(sessionId);
      return view(ctx.requireSession(sessionId));
    },
  };
}
