// Who started a compaction, in words a person recognises. The daemon's `trigger` tells a
// Compact now request (`requested`) from everything else (`agent`). A `/compact` the person
// typed is recognised by the user message that opened the compaction's turn: the reference
// daemon runs it as Compact now and marks that message `typed` (ADR 0116); a daemon that
// passes it to the agent as an ordinary prompt leaves an unmarked `/compact` line.

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

/** A `true` flag in a message's metadata, which is free-form on the wire. */
export function metadataFlag(metadata: unknown, flag: "maintenance" | "typed"): boolean {
  return (
    typeof metadata === "object" &&
    metadata !== null &&
    (metadata as Record<string, unknown>)[flag] === true
  );
}

/** Compact now's own prompt is `maintenance`; a command the person typed is also `typed`. */
function typedByPerson(metadata: unknown): boolean {
  return !metadataFlag(metadata, "maintenance") || metadataFlag(metadata, "typed");
}

/** Compaction id → the slash command typed just before it, for compactions that followed one. */
export function typedCompactions(entries: readonly Entry[]): ReadonlyMap<string, string> {
  const typed = new Map<string, string>();
  let lastCommand: string | undefined;
  for (const entry of entries) {
    const text = userText(entry);
    if (text !== undefined) {
      lastCommand =
        typedByPerson(entry.message.metadata) && SLASH_COMMAND.test(text) ? text : undefined;
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
  // A typed command runs as a Compact now request, so what the person typed decides first.
  if (typedCommand) return { kind: "typed", command: typedCommand };
  if (trigger === "requested") return { kind: "button" };
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
