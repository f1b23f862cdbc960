// The compaction summary: real Markdown built from the conversation memory (goal, decisions,
// files touched, open questions), split into chunks the way an adapter streams it.
import type { ConversationState } from "./conversation-state";

/** A fake credential, shaped like an Anthropic key, for the redaction path (`/demo big`). */
export const FAKE_API_KEY = "sk-ant-api03-DEMOonlyNOTaREALkey0000000000000000000000000000-TIDELINE";

const BIG_SUMMARY_MIN_BYTES = 17 * 1024;

const numberFormat = new Intl.NumberFormat("en-US");

function bulletList(items: readonly string[], empty: string): string[] {
  return items.length > 0 ? items.map((item) => `- ${item}`) : [`- ${empty}`];
}

export function summarizeConversation(state: ConversationState, focus: string | null): string {
  const { memory } = state;
  const lines = ["## Conversation summary", "", `**Goal:** ${memory.goal ?? "not stated yet"}`];
  if (focus) lines.push(`**Focus:** ${focus}`);
  lines.push(
    "",
    "### Decisions",
    ...bulletList(memory.decisions.slice(-8), "none yet"),
    "",
    "### Files touched",
    ...bulletList(
      memory.files.slice(-12).map((file) => `\`${file}\``),
      "none",
    ),
    "",
    "### Open questions",
    ...bulletList(memory.questions.slice(-5), "none"),
    "",
    "### Progress",
    `- ${state.turnCount} turns so far; the context held ${numberFormat.format(state.contextUsed)} tokens before this compaction.`,
  );
  return lines.join("\n");
}

/** A first draft for `/demo replace`: streamed as chunks, then replaced by the real summary. */
export function draftSummary(state: ConversationState): string {
  return [
    "## Draft summary (to be replaced)",
    "",
    `- Goal: ${state.memory.goal ?? "not stated yet"}`,
    `- ${state.turnCount} turns, details still being written…`,
  ].join("\n");
}

/** `/demo big`: a summary over 16 KiB with a fake API key near the top (redaction, then cap). */
export function bigSummary(state: ConversationState, focus: string | null): string {
  const lines = [
    summarizeConversation(state, focus),
    "",
    "### Environment seen",
    `- The shell had \`ANTHROPIC_API_KEY=${FAKE_API_KEY}\` exported.`,
    `- An Authorization header was logged: \`Bearer ${FAKE_API_KEY}\`.`,
    "",
    "### Transcript digest",
  ];
  let text = lines.join("\n");
  for (let step = 1; Buffer.byteLength(text) < BIG_SUMMARY_MIN_BYTES; step += 1) {
    text += `\n- Step ${step}: re-read the compaction intake rules, replayed the ledger and checked that every status stays in receive order.`;
  }
  return text;
}

/**
 * Splits a summary into at least two chunks, one per `###` section (the first chunk keeps the
 * heading and goal). Joined back together they are exactly the summary.
 */
export function summaryChunks(summary: string): string[] {
  const chunks = summary.split(/(?=\n### )/);
  if (chunks.length >= 2) return chunks;
  const middle = Math.max(1, Math.floor(summary.length / 2));
  return [summary.slice(0, middle), summary.slice(middle)];
}
