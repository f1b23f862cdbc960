// Who started a compaction, in words a person recognises. The daemon's `trigger` tells a
// Compact now request (`requested`) from everything else (`agent`); a `/compact` the person
// typed into the composer is an ordinary prompt to the daemon, so it is recognised here by
// the user message that opened the compaction's turn.

import type { CompactionTrigger } from "../contract/history";
import { compactionOf, type Entry } from "../contract/transcript";

export type CompactionOrigin =
  | { kind: "button" }
  | { kind: "typed"; command: string }
  | { kind: "agent" };

const SLASH_COMMAND = /^\/(compact|compress)\s*$/;

function userText(entry: Entry): string | undefined {
  if (entry.message.role !== "user") return undefined;
  const part = entry.message.parts.find((candidate) => candidate.type === "text");
  return part && "text" in part ? part.text.trim() : undefined;
}

/** Compact now's own prompt carries `maintenance: true`; metadata is free-form on the wire. */
function isMaintenance(metadata: unknown): boolean {
  return (
    typeof metadata === "object" &&
    metadata !== null &&
    (metadata as Record<string, unknown>).maintenance === true
  );
}

/** Compaction id → the slash command typed just before it, for compactions that followed one. */
export function typedCompactions(entries: readonly Entry[]): ReadonlyMap<string, string> {
  const typed = new Map<string, string>();
  let lastCommand: string | undefined;
  for (const entry of entries) {
    const text = userText(entry);
    if (text !== undefined) {
      const maintenance = isMaintenance(entry.message.metadata);
      lastCommand = !maintenance && SLASH_COMMAND.test(text) ? text : undefined;
      continue;
    }
    const compaction = compactionOf(entry);
    if (compaction && lastCommand) typed.set(compaction.compaction_id, lastCommand);
  }
  return typed;
}

export function compactionOrigin(
  trigger: CompactionTrigger | undefined,
  typedCommand: string | undefined,
): CompactionOrigin {
  if (trigger === "requested") return { kind: "button" };
  if (typedCommand) return { kind: "typed", command: typedCommand };
  return { kind: "agent" };
}

export function describeOrigin(origin: CompactionOrigin): string {
  switch (origin.kind) {
    case "button":
      return "You pressed Compact now";
    case "typed":
      return `You typed ${origin.command}`;
    case "agent":
      return "The agent compacted on its own";
  }
}
