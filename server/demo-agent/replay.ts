// `session/load` replays the conversation as session/update notifications, in order. A past
// compaction comes back as one terminal-first `compaction_update` (its final status, summary
// and error), or, for a client without the capability, as the finished tool call.
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { LEGACY_TOOL_TITLE } from "./compaction-runner";
import { isTerminalStatus } from "./compaction-script";
import type { ConversationState, HistoryEntry } from "./conversation-state";
import { textBlock } from "./session-channel";

export const EXITED_MID_COMPACTION = "The agent exited before the compaction finished";

/**
 * A compaction still in progress in a stored state was cut off by the process ending
 * (`/demo crash`): on load it is settled as `cancelled`, so it never replays as running.
 */
export function settleInterruptedCompactions(state: ConversationState): void {
  for (const entry of state.history) {
    if (entry.kind === "compaction" && !isTerminalStatus(entry.status)) {
      entry.status = "cancelled";
      entry.error = EXITED_MID_COMPACTION;
    }
  }
}

function replayEntry(entry: HistoryEntry, capability: boolean): SessionUpdate {
  switch (entry.kind) {
    case "user":
      return { sessionUpdate: "user_message_chunk", content: textBlock(entry.text) };
    case "agent":
      return {
        sessionUpdate: "agent_message_chunk",
        messageId: entry.messageId,
        content: textBlock(entry.text),
      };
    case "thought":
      return {
        sessionUpdate: "agent_thought_chunk",
        messageId: entry.messageId,
        content: textBlock(entry.text),
      };
    case "tool":
      return {
        sessionUpdate: "tool_call",
        toolCallId: entry.toolCallId,
        title: entry.title,
        kind: entry.toolKind,
        status: entry.status,
        rawInput: entry.input,
        content: [{ type: "content", content: textBlock(entry.output) }],
      };
    case "compaction": {
      if (capability) {
        const update: SessionUpdate = {
          sessionUpdate: "compaction_update",
          compactionId: entry.compactionId,
          status: entry.status,
        };
        if (entry.summary !== null) update.summary = [textBlock(entry.summary)];
        if (entry.error !== null) update.error = entry.error;
        return update;
      }
      const text =
        entry.status === "completed" ? entry.summary : (entry.error ?? "Compaction cancelled");
      return {
        sessionUpdate: "tool_call",
        toolCallId: entry.toolCallId,
        title: LEGACY_TOOL_TITLE,
        kind: "think",
        status: entry.status === "completed" ? "completed" : "failed",
        ...(text ? { content: [{ type: "content", content: textBlock(text) }] } : {}),
      };
    }
  }
}

export function replayConversation(state: ConversationState, capability: boolean): SessionUpdate[] {
  return state.history.map((entry) => replayEntry(entry, capability));
}
