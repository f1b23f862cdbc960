// The `prompt.completed` row from a `session/prompt` answer: its stop reason and the token
// counters of its `usage` (camelCase on ACP, snake_case in the ledger). Parsed leniently:
// a counter that is not a non-negative integer is left out rather than failing the turn.
import { asJsonObject } from "../../src/contract/json-value";
import type { PromptCompletion } from "../domain/session-recorder-api";
import type { PromptOutcome } from "./agent-process";

const COUNTERS = [
  ["inputTokens", "input_tokens"],
  ["outputTokens", "output_tokens"],
  ["totalTokens", "total_tokens"],
  ["thoughtTokens", "thought_tokens"],
  ["cachedReadTokens", "cache_read_tokens"],
  ["cachedWriteTokens", "cache_write_tokens"],
] as const;

export function completionOf(outcome: PromptOutcome): PromptCompletion {
  if (!outcome.ok) return { stop_reason: "error" };
  const stopReason = outcome.result.stopReason;
  const completion: PromptCompletion = {
    stop_reason: typeof stopReason === "string" && stopReason !== "" ? stopReason : "unknown",
  };
  const usage = asJsonObject(outcome.result.usage);
  if (usage === undefined) return completion;
  for (const [from, to] of COUNTERS) {
    const value = usage[from];
    if (typeof value === "number" && Number.isInteger(value) && value >= 0) completion[to] = value;
  }
  return completion;
}
