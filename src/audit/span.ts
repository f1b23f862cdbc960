// The span a compaction replaced, as the row describes it ("Replaced turns 3–17 · 42
// messages"): the person's turns in it, numbered as the turns list numbers them.
import type { Entry } from "../contract/transcript";
import { isPersonMessage, turnIdOf } from "./inventory";
import type { AuditSpan } from "./types";

export function describeSpan(
  entries: readonly Entry[],
  turnNumbers: ReadonlyMap<string, number> | undefined,
): AuditSpan {
  // The maintenance turn a typed `/compact` runs as is the compaction, not what it replaced.
  const turns: string[] = [];
  for (const entry of entries) {
    const turnId = isPersonMessage(entry) ? turnIdOf(entry) : undefined;
    if (turnId !== undefined && !turns.includes(turnId)) turns.push(turnId);
  }
  const first = turns[0] ?? null;
  const last = turns[turns.length - 1] ?? null;
  const firstNumber = first === null ? 0 : (turnNumbers?.get(first) ?? 1);
  const lastNumber = last === null ? 0 : (turnNumbers?.get(last) ?? firstNumber + turns.length - 1);
  // Messages as a person counts them: theirs and the agent's (replies, tool calls), not the
  // system lines (session state, notices, plans, compactions) nor a `/compact` turn's line.
  const messages = entries.filter(
    (entry) =>
      entry.message.role === "assistant" ||
      (entry.message.role === "user" && isPersonMessage(entry)),
  );
  return {
    first_turn_id: first,
    last_turn_id: last,
    first_turn_number: firstNumber,
    last_turn_number: lastNumber,
    // The row links to the first replaced turn: its opening message, not a state line before it.
    first_entry_id: (messages.find(isPersonMessage) ?? messages[0])?.message.id ?? null,
    turns: turns.length,
    messages: messages.length,
  };
}
