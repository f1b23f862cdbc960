// Plays a compaction script onto the wire. With the client's `session.compaction` capability it
// sends `compaction_update` / `compaction_summary_chunk`; without it, never: the compaction
// shows as a "Compact conversation" tool call (kind "think"), as older adapters do.
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import {
  type CompactionOutcome,
  type CompactionStep,
  foldSteps,
  isTerminalStatus,
} from "./compaction-script";
import { type Pace, TurnCancelled, throwIfCancelled } from "./pace";
import { type SessionChannel, textBlock } from "./session-channel";

export const LEGACY_TOOL_TITLE = "Compact conversation";
export const BAD_FRAME_TEXT = "This compaction_update has no status: a client must drop it.";

export type CompactionPlayer = {
  channel: SessionChannel;
  pace: Pace;
  signal: AbortSignal;
  /** Whether the client advertised `clientCapabilities.session.compaction`. */
  capability: boolean;
  compactionId: string;
  toolCallId: string;
  /** Ends the process mid-compaction (`/demo crash`); never returns. */
  crash(): Promise<never>;
};

export type PlayedCompaction = CompactionOutcome & { cancelled: boolean };

function compactionFrame(player: CompactionPlayer, step: CompactionStep): SessionUpdate | null {
  const { compactionId } = player;
  if (step.type === "chunk") {
    return {
      sessionUpdate: "compaction_summary_chunk",
      compactionId,
      content: textBlock(step.text),
    };
  }
  if (step.type !== "status") return null;
  const update: SessionUpdate = {
    sessionUpdate: "compaction_update",
    compactionId,
    status: step.status,
  };
  if (step.summary !== undefined) update.summary = step.summary?.map(textBlock) ?? null;
  if (step.error !== undefined) update.error = step.error;
  return update;
}

function legacyFrame(player: CompactionPlayer, step: CompactionStep): SessionUpdate | null {
  if (step.type !== "status") return null;
  const { toolCallId } = player;
  if (step.status === "in_progress") {
    return {
      sessionUpdate: "tool_call",
      toolCallId,
      title: LEGACY_TOOL_TITLE,
      kind: "think",
      status: "in_progress",
    };
  }
  if (step.status === "completed") {
    const summary = step.summary?.join("") ?? "";
    return {
      sessionUpdate: "tool_call_update",
      toolCallId,
      status: "completed",
      ...(summary ? { content: [{ type: "content", content: textBlock(summary) }] } : {}),
    };
  }
  if (step.status === "failed" || step.status === "cancelled") {
    const reason = step.error ?? "Compaction cancelled";
    return {
      sessionUpdate: "tool_call_update",
      toolCallId,
      status: "failed",
      content: [{ type: "content", content: textBlock(reason) }],
    };
  }
  return null;
}

async function playStep(player: CompactionPlayer, step: CompactionStep): Promise<void> {
  switch (step.type) {
    case "beat":
      return player.pace.beat(step.baseMs, player.signal);
    case "hold":
      return player.pace.hold(step.ms, player.signal);
    case "crash":
      await player.crash();
      return;
    case "bad-frame":
      // Without the capability no compaction update may be sent, not even a broken one; a
      // tool_call_update without its toolCallId is just as invalid.
      return player.capability
        ? player.channel.sendUnchecked({
            sessionUpdate: "compaction_update",
            compactionId: player.compactionId,
            summary: [textBlock(BAD_FRAME_TEXT)],
          })
        : player.channel.sendUnchecked({ sessionUpdate: "tool_call_update", status: "completed" });
    default: {
      const frame = player.capability ? compactionFrame(player, step) : legacyFrame(player, step);
      if (frame) await player.channel.send(frame);
    }
  }
}

/**
 * Plays every step; on a cancelled turn that is still in progress, ends the compaction
 * `cancelled` (clearing any streamed chunks) and reports it instead of throwing.
 */
export async function playCompaction(
  player: CompactionPlayer,
  steps: readonly CompactionStep[],
): Promise<PlayedCompaction> {
  const played: CompactionStep[] = [];
  try {
    for (const step of steps) {
      throwIfCancelled(player.signal);
      await playStep(player, step);
      played.push(step);
    }
    return { ...foldSteps(played), cancelled: false };
  } catch (error) {
    if (!(error instanceof TurnCancelled)) throw error;
    const sofar = foldSteps(played);
    if (isTerminalStatus(sofar.status)) return { ...sofar, cancelled: true };
    const cancel: CompactionStep = {
      type: "status",
      status: "cancelled",
      ...(sofar.summary !== null ? { summary: null } : {}),
    };
    await playStep({ ...player, signal: new AbortController().signal }, cancel);
    return { ...foldSteps([...played, cancel]), cancelled: true };
  }
}
