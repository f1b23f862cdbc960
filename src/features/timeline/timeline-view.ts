// Pure reading of the cached transcript for the timeline: the usage markers by compaction
// id (for the before → after figures), who speaks, and why an interrupted compaction ended.
import type { CompactionMarkerView, UsageTurnsView } from "../../api/usage-queries";
import { type Entry, type Message, speakerOf } from "../../contract/transcript";
import { isInterrupted } from "../../lib/compaction-words";
import { partitionPoint } from "../../lib/partition-point";

export function markersById(
  turns: UsageTurnsView | null,
): ReadonlyMap<string, CompactionMarkerView> {
  return new Map((turns?.compactions ?? []).map((marker) => [marker.compaction_id, marker]));
}

/** Who a row says spoke; a system entry names no one. */
export const SPEAKER_NAMES = { user: "You", assistant: "Agent", system: undefined } as const;

/** What "Copy message" copies: the message's text parts, as written (Markdown). */
export function messageText(message: Message): string {
  return message.parts
    .flatMap((part) => (part.type === "text" ? [part.text] : []))
    .join("\n\n")
    .trim();
}

/** Consecutive agent entries (text, thinking, tools of one reply) share one "Agent" label. */
export function showsSpeaker(entries: readonly Entry[], index: number): boolean {
  const entry = entries[index];
  if (entry === undefined || speakerOf(entry.message) !== "assistant") return true;
  const previous = entries[index - 1];
  return previous === undefined || speakerOf(previous.message) !== "assistant";
}

/** Index of the entry starting at `startSequence` (entries are sorted by it), or -1. */
export function indexOfStartSequence(entries: readonly Entry[], startSequence: number): number {
  const index = partitionPoint(entries, (entry) => entry.start_sequence >= startSequence);
  return entries[index]?.start_sequence === startSequence ? index : -1;
}

function exitText(data: Record<string, unknown>): string {
  if (typeof data.signal === "string" && data.signal) return `agent exited (signal ${data.signal})`;
  if (typeof data.code === "number") return `agent exited (code ${data.code})`;
  return "agent exited";
}

/**
 * Compaction id → why it was interrupted ("agent exited (code 3)"): the first agent exit
 * recorded after a compaction the daemon closed for that reason.
 */
export function interruptionReasons(entries: readonly Entry[]): ReadonlyMap<string, string> {
  const reasons = new Map<string, string>();
  let waiting: string[] = [];
  for (const entry of entries) {
    for (const part of entry.message.parts) {
      if (part.type === "data-compozy-compaction" && isInterrupted(part.data)) {
        waiting.push(part.data.compaction_id);
      } else if (part.type === "data-compozy-event" && part.data.type === "agent.exited") {
        const text = exitText(part.data);
        for (const id of waiting) reasons.set(id, text);
        waiting = [];
      }
    }
  }
  return reasons;
}

type StateChange = { state: string; reason: string | undefined };

function stateChangeOf(entry: Entry | undefined): StateChange | undefined {
  const parts = entry?.message.parts;
  if (parts?.length !== 1) return undefined;
  const part = parts[0];
  if (part?.type !== "data-compozy-event" || part.data.type !== "session.state") return undefined;
  const state = typeof part.data.state === "string" ? part.data.state : "changed";
  const reason =
    typeof part.data.reason === "string" && part.data.reason.trim()
      ? part.data.reason.trim()
      : undefined;
  return { state, reason };
}

export type StateLineFolds = {
  /** Entries shown as part of a later line (drawn as nothing). */
  folded: ReadonlySet<number>;
  /** Index of the last entry of a run → the one line for the whole run. */
  lines: ReadonlyMap<number, string>;
};

/**
 * Consecutive session state lines read as one: `Session starting → active`, `Session
 * stopping → stopped — daemon restarted` (the newest reason), instead of a pile of them.
 */
export function foldStateLines(entries: readonly Entry[]): StateLineFolds {
  const folded = new Set<number>();
  const lines = new Map<number, string>();
  let run: Array<{ index: number; change: StateChange }> = [];
  const close = () => {
    if (run.length > 1) {
      for (const item of run.slice(0, -1)) folded.add(item.index);
      const states = run.map((item) => item.change.state);
      const reason = run.findLast((item) => item.change.reason)?.change.reason;
      const last = run.at(-1);
      if (last)
        lines.set(last.index, `Session ${states.join(" → ")}${reason ? ` — ${reason}` : ""}`);
    }
    run = [];
  };
  entries.forEach((entry, index) => {
    const change = stateChangeOf(entry);
    if (change) run.push({ index, change });
    else close();
  });
  close();
  return { folded, lines };
}
