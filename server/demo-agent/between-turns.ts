// The work a session does outside a prompt turn, queued through runExclusive like a turn:
// announcing its commands (and its usage, after a load), and the `idle` compaction that
// starts a moment after a turn ended.
import { type AgentDeps, type AgentSession, reportUsage, runExclusive } from "./agent-session";
import { compactConversation } from "./compact-conversation";
import { estimateTokens, outputCostUsd, roundUsd } from "./context-usage";
import { TurnCancelled } from "./pace";
import { availableCommands } from "./slash-commands";

/** How long an `idle` compaction waits after its turn ended before it starts (at speed 1). */
const IDLE_START_MS = 1_500;

/** Sends the session's command list, then its usage when `withUsage`. */
export function announce(deps: AgentDeps, session: AgentSession, withUsage: boolean) {
  return runExclusive(session, async () => {
    await session.channel.send({
      sessionUpdate: "available_commands_update",
      availableCommands: availableCommands(deps.options.commands),
    });
    if (withUsage) await reportUsage(deps, session);
  });
}

/** The `idle` compaction after a turn; a `session/cancel` ends it quietly. */
export function compactBetweenTurns(deps: AgentDeps, session: AgentSession) {
  return runExclusive(session, async (signal) => {
    try {
      await deps.pace.beat(IDLE_START_MS, signal);
      const played = await compactConversation(deps, session, signal, null);
      // The summary is output the model produced: charged before the report that follows.
      if (!played.cancelled) {
        const { state } = session;
        state.costUsd = roundUsd(
          state.costUsd + outputCostUsd(estimateTokens(played.summary ?? "")),
        );
        deps.save(state);
      }
      if (played.status === "completed" && !played.cancelled && played.reportsUsage) {
        await reportUsage(deps, session);
      }
    } catch (error) {
      if (!(error instanceof TurnCancelled)) throw error;
    }
  });
}
