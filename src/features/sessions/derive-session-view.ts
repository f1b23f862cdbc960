// What the Continue / Fork panel says about a preview, as plain text.

import type { DeriveKind } from "../../api/derive-queries";
import type { DerivePreview } from "../../contract/derive";

const number = new Intl.NumberFormat("en");

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${number.format(bytes)} bytes`;
  return `${new Intl.NumberFormat("en", { maximumFractionDigits: 1 }).format(bytes / 1024)} KB`;
}

const plural = (count: number, one: string, many: string) =>
  `${number.format(count)} ${count === 1 ? one : many}`;

export function previewSummary(preview: DerivePreview): string {
  if (preview.message_count === 0 && preview.omitted_count === 0) {
    return "This conversation has no messages yet: the new session starts empty.";
  }
  const carried = `The new session's agent is sent ${plural(preview.message_count, "message", "messages")} of this conversation (${formatBytes(preview.replay_bytes)}) with its first prompt.`;
  if (preview.omitted_count > 0) {
    return `${carried} ${plural(preview.omitted_count, "earlier message is", "earlier messages are")} left out to fit the replay budget; this session keeps them.`;
  }
  return preview.truncated
    ? `${carried} Some long messages are shortened to fit the budget.`
    : carried;
}

export const DERIVE_TEXT: Record<DeriveKind, { title: string; start: string; effect: string }> = {
  continue: {
    title: "Continue this session",
    start: "Start continued session",
    effect: "This session is stopped; the conversation goes on in the new one.",
  },
  fork: {
    title: "Fork this session",
    start: "Start fork",
    effect: "This session stays as it is; the fork goes its own way.",
  },
};

const NAME_SUFFIX: Record<DeriveKind, string> = { continue: "(continued)", fork: "(fork)" };

/** "Refactor (continued)": the new session is named after the one it comes from. */
export function suggestedName(sourceTitle: string, kind: DeriveKind): string {
  const suffix = ` ${NAME_SUFFIX[kind]}`;
  const stem = sourceTitle.endsWith(suffix) ? sourceTitle.slice(0, -suffix.length) : sourceTitle;
  return `${stem.slice(0, 200 - suffix.length)}${suffix}`;
}

/** The POST body: another agent only when one was picked, the name when not blank. */
export function deriveBody(
  agent: string,
  sourceAgent: string | undefined,
  name: string,
): { agent_name?: string; name?: string } {
  const trimmed = name.trim().slice(0, 200);
  return {
    ...(agent === "" || agent === sourceAgent ? {} : { agent_name: agent }),
    ...(trimmed === "" ? {} : { name: trimmed }),
  };
}
