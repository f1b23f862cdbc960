// Launch: spawn the session's agent, wire what it says into the ledger (agent-events.ts;
// in receive order, each line one synchronous recorder call), run the handshake
// (agent-handshake.ts), and close the session when the process ends.
import type { SessionRecord } from "../../domain/session-recorder-api";
import { type AgentProcess, spawnAgent } from "../agent-process";
import type { PermissionBroker } from "../permission-broker";
import type { ReplayKeeper } from "../session-replay";
import { agentEventsOf } from "./agent-events";
import { handshake } from "./agent-handshake";
import type { AgentTrees } from "./agent-trees";
import type { HostContext, Runtime } from "./host-context";
import type { Turns } from "./turns";

type Exit = { code: number | null; signal: string | null; error?: string };

function exitReason(exit: Exit) {
  if (exit.error !== undefined) return exit.error;
  if (exit.signal !== null) return `agent exited on signal ${exit.signal}`;
  return `agent exited with code ${exit.code ?? "unknown"}`;
}

/** The agent `proc` ended: its requests are orphaned, its turn ends, the session stops. */
function onExit(
  ctx: HostContext,
  permissions: PermissionBroker,
  sessionId: string,
  runtime: Runtime,
  proc: AgentProcess,
  exit: Exit,
) {
  const { recorder, record } = ctx;
  if (runtime.process !== proc) return;
  const turn = runtime.turn;
  permissions.closeSession(
    sessionId,
    runtime.stopReason === undefined ? "agent exited" : `agent stopped (${runtime.stopReason})`,
  );
  record(sessionId, "agent.exited", () =>
    recorder.recordAgentExited(sessionId, turn?.id ?? null, {
      code: exit.code,
      signal: exit.signal,
    }),
  );
  if (turn !== undefined) {
    record(sessionId, "prompt.completed", () =>
      recorder.recordPromptCompleted(sessionId, turn.id, { stop_reason: "agent_exited" }),
    );
    runtime.turn = undefined;
  }
  runtime.process = undefined;
  ctx.deps.sessionTools?.revoke(sessionId);
  const reason = runtime.stopReason ?? exitReason(exit);
  runtime.stopReason = undefined;
  ctx.setState(sessionId, runtime, "stopped", reason);
}

export type AgentLauncher = ReturnType<typeof createAgentLauncher>;

export function createAgentLauncher(
  ctx: HostContext,
  parts: { permissions: PermissionBroker; replays: ReplayKeeper; turns: Turns; trees: AgentTrees },
) {
  const { deps } = ctx;
  const { permissions } = parts;

  return {
    /** Starts the session's agent; `resume` loads its earlier ACP session when it can. */
    launch(session: SessionRecord, runtime: Runtime, resume: boolean): void {
      const agent = ctx.agentFor(session.agent_name);
      const workspace = ctx.store.getWorkspace(session.workspace_id);
      ctx.setState(session.id, runtime, "starting");
      if (agent === undefined || workspace === undefined) {
        ctx.setState(
          session.id,
          runtime,
          "stopped",
          `agent "${session.agent_name}" is not configured`,
        );
        return;
      }
      let proc: AgentProcess;
      try {
        proc = spawnAgent(
          agent,
          {
            cwd: deps.agentCwd,
            ...(deps.env ? { env: deps.env } : {}),
            ...(deps.killGraceMs === undefined ? {} : { killGraceMs: deps.killGraceMs }),
          },
          agentEventsOf(ctx, permissions, session, runtime, (exit) =>
            onExit(ctx, permissions, session.id, runtime, proc, exit),
          ),
        );
      } catch (error) {
        ctx.setState(session.id, runtime, "stopped", `could not start the agent: ${String(error)}`);
        return;
      }
      runtime.process = proc;
      parts.trees.track(session.id, proc);
      void handshake(ctx, parts, session, runtime, proc, { cwd: workspace.root_dir, resume });
    },
  };
}
