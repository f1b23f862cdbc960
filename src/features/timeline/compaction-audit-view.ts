// Pure view logic of a compaction's audit: the span line, the counts, the order Remind
// the agent offers items in, and the prompt it writes. Labels are plain text throughout;
// the prompt is Markdown only in its own quoting (the person's words go in as quotes).
import type { AuditItem, AuditItemKind, AuditSpan, CompactionAudit } from "../../audit/types";

export const KIND_LABELS: Record<AuditItemKind, string> = {
  instruction: "Your instruction",
  last_request: "Your last request",
  pinned: "Pinned message",
  path: "File",
  command: "Command",
  error: "Error",
  identifier: "Identifier",
  url: "Link",
  plan: "Plan step",
};

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;

/** "Replaced turns 3–17 · 42 messages" (or one turn, or only messages). */
export function spanLine(span: AuditSpan): string {
  const messages = plural(span.messages, "message");
  if (span.turns === 0) return `Replaced ${messages}`;
  const turns =
    span.first_turn_number === span.last_turn_number
      ? `turn ${span.first_turn_number}`
      : `turns ${span.first_turn_number}–${span.last_turn_number}`;
  return `Replaced ${turns} · ${messages}`;
}

/** The inventory disclosure's counts: "kept 14 of 19 · 5 dropped". */
export function countsLine(audit: CompactionAudit): string {
  const { counts } = audit;
  if (!audit.summary_readable) {
    return counts.total === 0 ? "nothing to check" : `${plural(counts.total, "item")} unchecked`;
  }
  if (counts.total === 0) return "nothing to check";
  return `kept ${counts.kept} of ${counts.total} · ${counts.dropped} dropped`;
}

/**
 * What Remind the agent offers, in its order: pinned messages first (the person said they
 * matter), then the last request, then the rest as the audit lists them.
 */
export function remindable(audit: CompactionAudit): AuditItem[] {
  const dropped = audit.items.filter((item) => item.status === "dropped");
  const rank = (item: AuditItem) => (item.pinned ? 0 : item.kind === "last_request" ? 1 : 2);
  return dropped
    .map((item, index) => ({ item, index }))
    .sort((a, b) => rank(a.item) - rank(b.item) || a.index - b.index)
    .map(({ item }) => item);
}

/** The person's words as a Markdown quote, every line of them, verbatim. */
function quoted(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => (line === "" ? ">" : `> ${line}`))
    .join("\n");
}

/** An inline code span that survives backticks inside the text. */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

function reminderLine(item: AuditItem): string {
  if (item.by_person) {
    const what = item.pinned
      ? "I pinned this"
      : item.kind === "last_request"
        ? "My last request"
        : "I asked";
    return `${what}:\n\n${quoted(item.label)}`;
  }
  const one = item.label.replace(/\s+/g, " ").trim();
  switch (item.kind) {
    case "path":
      return `- The file ${code(one)}`;
    case "command":
      return `- The command ${code(one)}`;
    case "error":
      return `- The error: ${one}`;
    case "url":
      return `- ${one}`;
    case "plan":
      return `- The plan step: ${one}`;
    default:
      return `- ${code(one)}`;
  }
}

/**
 * The prompt Remind the agent puts in the composer (editable; nothing is sent until Send):
 * the person's words quoted as they wrote them, then the other items as a list.
 */
export function reminderPrompt(items: readonly AuditItem[]): string {
  const own = items.filter((item) => item.by_person).map(reminderLine);
  const rest = items.filter((item) => !item.by_person).map(reminderLine);
  const parts = ["The last context compaction dropped these from its summary. Keep them in mind:"];
  if (own.length > 0) parts.push(own.join("\n\n"));
  if (rest.length > 0) parts.push(`${own.length > 0 ? "Also:\n" : ""}${rest.join("\n")}`);
  return `${parts.join("\n\n")}\n`;
}

/** Long labels fold: more than this many characters or lines shows a "Show all" toggle. */
export const LABEL_FOLD_CHARS = 280;
const LABEL_FOLD_LINES = 4;

export function labelFolds(label: string): boolean {
  if (label.length > LABEL_FOLD_CHARS) return true;
  let lines = 1;
  for (let at = label.indexOf("\n"); at >= 0; at = label.indexOf("\n", at + 1)) {
    lines += 1;
    if (lines > LABEL_FOLD_LINES) return true;
  }
  return false;
}

/** The folded form: the first lines, cut at a bounded length. */
export function foldedLabel(label: string): string {
  const head = label.split("\n", LABEL_FOLD_LINES).join("\n");
  return head.length > LABEL_FOLD_CHARS ? `${head.slice(0, LABEL_FOLD_CHARS - 1)}…` : `${head}…`;
}
