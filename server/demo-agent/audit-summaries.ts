// Summaries that lose things on purpose, for the compaction audit's demo scenarios (issue 20):
// `lossy` keeps only the goal, `keep-pinned` also quotes the person's "Keep this:" messages word
// for word, `forgetful` writes only what happened since the previous compaction.
import type { ConversationState, HistoryEntry } from "./conversation-state";

const KEEP_THIS = /^\s*keep this\b/i;

function userTexts(entries: readonly HistoryEntry[]): string[] {
  return entries.flatMap((entry) => (entry.kind === "user" ? [entry.text] : []));
}

/** What a real adapter's too-short summary looks like: the goal, and nothing the span added. */
export function lossySummary(state: ConversationState): string {
  return [
    "## Conversation summary",
    "",
    `**Goal:** ${state.memory.goal ?? "not stated yet"}`,
    "",
    "### Progress",
    "- Work is under way.",
  ].join("\n");
}

/** `lossy`, plus every message the person marked "Keep this:", quoted as written. */
export function keepPinnedSummary(state: ConversationState): string {
  const rules = userTexts(state.history).filter((text) => KEEP_THIS.test(text));
  const quoted = rules.length > 0 ? rules.map((text) => `> ${text}`) : ["- none"];
  return [lossySummary(state), "", "### Standing rules (word for word)", ...quoted].join("\n");
}

/** Only the turns since the previous compaction: what that one kept is not carried on. */
export function forgetfulSummary(state: ConversationState): string {
  const last = state.history.findLastIndex((entry) => entry.kind === "compaction");
  const recent = state.history.slice(last + 1);
  const requests = userTexts(recent);
  const files = [
    ...new Set(
      recent.flatMap((entry) =>
        entry.kind === "tool" && entry.input.path !== undefined ? [entry.input.path] : [],
      ),
    ),
  ];
  return [
    "## Conversation summary",
    "",
    `**Goal:** ${requests[0] ?? "not stated yet"}`,
    "",
    "### Since the last summary",
    ...(requests.length > 0 ? requests.map((text) => `- ${text}`) : ["- nothing new"]),
    "",
    "### Files touched",
    ...(files.length > 0 ? files.map((file) => `- \`${file}\``) : ["- none"]),
  ].join("\n");
}
