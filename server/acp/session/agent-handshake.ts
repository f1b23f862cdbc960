// The handshake after a session's agent is spawned: `initialize`, then `session/load` of
// its earlier ACP session when resuming an agent that can, else `session/new` (owed a
// replay). Once the session is active, a prompt that resumed it goes out; a failure is
// logged and ends the process, whose exit then stops the session.
import type { SessionRecord } from "../../domain/session-recorder-api";
import type { AgentProcess } from "../agent-process";
import type { ReplayKeeper } from "../session-replay";
import type { HostContext, Runtime } from "./host-context";
import type { Turns } from "./turns";

type HandshakeParts = { replays: ReplayKeeper; turns: Turns };

/** The agent's ACP session: loaded when resuming an agent that can, else a new one. */
async function openAgentSession(
  ctx: HostContext,
  replays: ReplayKeeper,
  session: SessionRecord,
  runtime: Runtime,
  proc: AgentProcess,
  opening: { cwd: string; resume: boolean },
) {
  const { deps, recorder, record } = ctx;
  const timeoutMs = ctx.initializeTimeoutMs;
  const init = await proc.initialize(deps.version, timeoutMs);
  const canLoad = init.agentCapabilities?.loadSession === true;
  runtime.supportsLoad = canLoad;
  const previous = ctx.store.getSession(session.id)?.acp_session_id;
  // ACP: an HTTP MCP server goes only to an agent that says it takes one.
  const mcpServers =
    deps.sessionTools !== undefined &&
    ctx.toolsOffered(session.id) &&
    init.agentCapabilities?.mcpCapabilities?.http === true
      ? [deps.sessionTools.serverFor(session.id, session.workspace_id)]
      : [];
  if (opening.resume && canLoad && previous !== undefined) {
    const setup = await proc.loadSession(previous, opening.cwd, timeoutMs, mcpServers);
    runtime.acpSessionId = previous;
    record(session.id, "session setup", () => recorder.recordSessionSetup(session.id, setup));
    return;
  }
  const setup = await proc.newSession(opening.cwd, timeoutMs, mcpServers);
  ctx.store.setAcpSessionId(session.id, setup.sessionId);
  runtime.acpSessionId = setup.sessionId;
  record(session.id, "session setup", () => recorder.recordSessionSetup(session.id, setup));
  // The new agent session knows nothing of this one: it is owed a replay. A prompt that
  // resumed the session is already recorded; it is the request, not part of the replay.
  replays.agentSessionStarted(
    session.id,
    setup.sessionId,
    runtime.pendingPrompt === undefined ? undefined : runtime.turn?.id,
  );
}

/** Runs the handshake of `proc`, the session's agent, in `cwd`. */
export async function handshake(
  ctx: HostContext,
  parts: HandshakeParts,
  session: SessionRecord,
  runtime: Runtime,
  proc: AgentProcess,
  opening: { cwd: string; resume: boolean },
): Promise<void> {
  try {
    await openAgentSession(ctx, parts.replays, session, runtime, proc, opening);
    if (runtime.process === proc && runtime.state === "starting") {
      ctx.setState(session.id, runtime, "active");
      // A prompt that resumed the session goes out now, as its own turn.
      const pending = runtime.pendingPrompt;
      runtime.pendingPrompt = undefined;
      if (pending !== undefined && runtime.turn !== undefined) {
        parts.turns.sendPrompt(session.id, runtime, pending);
      }
    }
  } catch (error) {
    if (runtime.process !== proc) return;
    const message = error instanceof Error ? error.message : String(error);
    ctx.log(`[${session.id}] agent handshake failed: ${message}`);
    runtime.stopReason ??= message;
    proc.kill(ctx.deps.killGraceMs);
  }
}
