// Continue and fork (ADR 0087): a new session in the same workspace (optionally with
// another agent) that owes its first ordinary prompt the source's replay.
import type { DaemonSession } from "../../../src/contract/session";
import { refuse } from "../session-refusal";
import type { ReplayKeeper } from "../session-replay";
import type { HostContext } from "./host-context";
import type { DeriveInput } from "./host-types";
import type { SessionStarter } from "./session-lifecycle";
import { derivedName, shownNameOf, successorOf } from "./session-lineage";

export function createSessionDerivation(
  ctx: HostContext,
  parts: {
    replays: ReplayKeeper;
    start: SessionStarter;
    stopSession: (sessionId: string, workspaceId: string) => void;
  },
) {
  const { replays } = parts;
  return {
    /** What a continue or fork of this session would carry (`derive/preview`). */
    derivePreview(sourceId: string, workspaceId: string, sessionTools?: boolean) {
      const source = ctx.requireSession(sourceId, workspaceId);
      return replays.build(sourceId, "fork", {
        sourceAgent: source.agent_name,
        historyToolOffered: ctx.toolsOffered("", sessionTools),
      });
    },

    /** Continue also stops the source, whose conversation moves on; fork leaves it be. */
    deriveSession(
      sourceId: string,
      workspaceId: string,
      kind: "continue" | "fork",
      input: DeriveInput,
    ): DaemonSession {
      const source = ctx.requireSession(sourceId, workspaceId);
      const agentName = input.agent ?? source.agent_name;
      if (ctx.agentFor(agentName) === undefined) {
        throw refuse.invalid(`unknown agent "${agentName}"`);
      }
      if (kind === "continue" && ctx.runtimes.get(sourceId)?.turn !== undefined) {
        throw refuse.busy();
      }
      // One successor per conversation: a continued session can be forked, not continued
      // (ADR 0136).
      const successor = successorOf(ctx.deps.ledger.settings, sourceId);
      if (kind === "continue" && successor !== undefined) throw refuse.continued(successor);
      const sourceName = shownNameOf(ctx.store, ctx.reader, sourceId) ?? undefined;
      const name = input.name ?? derivedName(sourceName, kind);
      const replay = replays.build(sourceId, kind, {
        sourceAgent: source.agent_name,
        historyToolOffered: ctx.toolsOffered("", input.sessionTools),
      });
      const started = parts.start(workspaceId, agentName, name);
      const created = started.created;
      ctx.deps.ledger.settings.recordDerivation(created.id, sourceId, kind);
      // What the first prompt will carry, shown as the new session's first row.
      ctx.recorder.recordReplayCarried(created.id, {
        source_session_id: sourceId,
        ...(sourceName === undefined ? {} : { source_name: sourceName }),
        kind,
        message_count: replay.messageCount,
        omitted_count: replay.omittedCount,
        truncated: replay.truncated,
        replay_bytes: replay.bytes,
        messages: replay.messages,
      });
      if (input.sessionTools !== undefined) {
        ctx.deps.ledger.settings.setSessionTools(created.id, input.sessionTools);
      }
      // Bound to no agent session yet: the first one started for it takes it over.
      replays.owe(created.id, "", kind, replay);
      if (kind === "continue") parts.stopSession(sourceId, workspaceId);
      return started.launch();
    },
  };
}
