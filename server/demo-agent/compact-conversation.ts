// One compaction from start to end, whatever started it (`/compact`, the auto threshold, or an
// idle moment): takes the next armed scenario, plays its script, remembers the outcome, and
// shrinks the context when it completed. The caller reports usage afterwards.

import type { AgentDeps, AgentSession } from "./agent-session";
import { type PlayedCompaction, playCompaction } from "./compaction-runner";
import { compactionScript, reportsUsageAfter } from "./compaction-script";
import { contextAfterCompaction } from "./context-usage";
import { type CompactionEntry, nextId } from "./conversation-state";
import { textBlock } from "./session-channel";

/** Exit code of `/demo crash`, so a client can tell the planned crash from a real one. */
export const CRASH_EXIT_CODE = 3;

const numberFormat = new Intl.NumberFormat("en-US");

function legacyLine(played: PlayedCompaction, before: number, after: number): string | null {
  if (played.cancelled) return null;
  if (played.status === "completed") {
    return `Compacted the conversation: context ${numberFormat.format(before)} → ${numberFormat.format(after)} tokens.`;
  }
  if (played.status === "failed")
    return `The compaction failed: ${played.error ?? "unknown error"}`;
  return null;
}

export async function compactConversation(
  deps: AgentDeps,
  session: AgentSession,
  signal: AbortSignal,
  focus: string | null,
): Promise<PlayedCompaction & { reportsUsage: boolean }> {
  const { state, channel } = session;
  const armed = state.armed.shift() ?? null;
  const steps = compactionScript(armed, state, focus);
  const entry: CompactionEntry = {
    kind: "compaction",
    compactionId: nextId(state, "compaction"),
    toolCallId: nextId(state, "toolCall"),
    status: "in_progress",
    summary: null,
    error: null,
  };
  state.history.push(entry);
  // Saved before the first frame: the ids stay taken even if the process dies mid-way.
  deps.save(state);

  const before = state.contextUsed;
  const played = await playCompaction(
    {
      channel,
      pace: deps.pace,
      signal,
      capability: deps.capability,
      compactionId: entry.compactionId,
      toolCallId: entry.toolCallId,
      crash: async () => {
        deps.save(state);
        deps.log(`crashing on purpose in the middle of ${entry.compactionId} (/demo crash)`);
        return deps.exit(CRASH_EXIT_CODE);
      },
    },
    steps,
  );
  entry.status = played.status;
  entry.summary = played.summary;
  entry.error = played.error;
  if (played.status === "completed") state.contextUsed = contextAfterCompaction(before);

  const line = deps.capability ? null : legacyLine(played, before, state.contextUsed);
  if (line) {
    const messageId = nextId(state, "message");
    state.history.push({ kind: "agent", messageId, text: line });
    await channel.send({
      sessionUpdate: "agent_message_chunk",
      messageId,
      content: textBlock(line),
    });
  }
  deps.save(state);
  return { ...played, reportsUsage: reportsUsageAfter(armed) };
}
