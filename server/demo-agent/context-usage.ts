// Token arithmetic of the demo agent. Deterministic stand-ins for what a model reports:
// about 4 characters a token, a fixed overhead per turn (system prompt, tool schemas), a
// compaction that keeps a fifth of the context, and list prices of $3 / $15 per million
// input / output tokens.
import type { Usage } from "@agentclientprotocol/sdk/unstable";

export const TURN_OVERHEAD_TOKENS = 600;
const KEPT_AFTER_COMPACTION = 0.2;
const INPUT_USD_PER_TOKEN = 3 / 1_000_000;
const OUTPUT_USD_PER_TOKEN = 15 / 1_000_000;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** What is left in the context once a compaction completed (20 % of what was there). */
export function contextAfterCompaction(used: number): number {
  return Math.round(used * KEPT_AFTER_COMPACTION);
}

export function isPastThreshold(used: number, size: number, autoCompactAt: number): boolean {
  return used >= size * autoCompactAt;
}

/** One turn's tokens: what was sent (the whole context so far plus the prompt) and produced. */
export type TurnTokens = {
  contextBefore: number;
  promptTokens: number;
  outputTokens: number;
  thoughtTokens: number;
};

/** The turn's token counters for the prompt response (`usage`, an unstable ACP field). */
export function turnUsage(turn: TurnTokens): Usage {
  const inputTokens = turn.contextBefore + turn.promptTokens + TURN_OVERHEAD_TOKENS;
  return {
    inputTokens,
    outputTokens: turn.outputTokens,
    thoughtTokens: turn.thoughtTokens,
    cachedReadTokens: turn.contextBefore,
    cachedWriteTokens: turn.promptTokens,
    totalTokens: inputTokens + turn.outputTokens + turn.thoughtTokens,
  };
}

/** The cost of one turn in USD, rounded to a hundredth of a cent so sums stay readable. */
export function turnCostUsd(usage: Usage): number {
  const raw =
    usage.inputTokens * INPUT_USD_PER_TOKEN +
    (usage.outputTokens + (usage.thoughtTokens ?? 0)) * OUTPUT_USD_PER_TOKEN;
  return roundUsd(raw);
}

/** The price of tokens the model produced (a compaction's summary). */
export function outputCostUsd(tokens: number): number {
  return roundUsd(tokens * OUTPUT_USD_PER_TOKEN);
}

export function roundUsd(amount: number): number {
  return Math.round(amount * 10_000) / 10_000;
}
