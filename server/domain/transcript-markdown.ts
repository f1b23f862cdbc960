// A session as a readable Markdown transcript (the export, ADR 0240): who said what, in
// order; each tool call folded behind a `<details>` line with its input and output; each
// compaction as a quoted row with its summary folded below it. Rendered an entry at a time,
// so an export of any length streams.
import type { DaemonEntry, KnownPart } from "../../src/contract/transcript";
import { speakerOf, toolNameOf } from "../../src/contract/transcript";

export type ExportedSession = {
  id: string;
  name?: string | null | undefined;
  agent_name: string;
  state: string;
  created_at: string;
};

const TOOL_STATE_WORDS: Readonly<Record<string, string>> = {
  "input-streaming": "starting",
  "input-available": "running",
  "output-available": "done",
  "output-error": "failed",
};

/** The file's opening: the session's name and what it is. */
export function markdownHeader(session: ExportedSession, exportedAt: string): string {
  const title = oneLine(session.name ?? "") || session.id;
  return [
    `# ${title}`,
    "",
    `- Session: \`${session.id}\``,
    `- Agent: ${oneLine(session.agent_name)}`,
    `- State: ${session.state}`,
    `- Created: ${session.created_at}`,
    `- Exported from Tideline: ${exportedAt}`,
    "",
    "",
  ].join("\n");
}

/**
 * Renders entries in order, each ending in a blank line (nothing for an entry with nothing
 * to show). A speaker's heading is written when the speaker changes, as the timeline shows it.
 */
export function createMarkdownWriter(): { entry(entry: DaemonEntry): string } {
  let previous: string | undefined;
  return {
    entry(entry) {
      const blocks = entry.message.parts
        .map((part) => partMarkdown(part))
        .filter((block) => block !== "");
      if (blocks.length === 0) return "";
      const speaker = speakerOf(entry.message);
      const heading =
        speaker === previous || speaker === "system"
          ? ""
          : speaker === "user"
            ? "### You\n\n"
            : "### Agent\n\n";
      previous = speaker;
      return `${heading}${blocks.join("\n\n")}\n\n`;
    },
  };
}

/** One entry's Markdown on its own, with its speaker's heading. */
export function entryMarkdown(entry: DaemonEntry): string {
  return createMarkdownWriter().entry(entry);
}

function partMarkdown(part: KnownPart): string {
  switch (part.type) {
    case "text":
      return part.text.trim();
    case "reasoning":
      return part.text.trim() === "" ? "" : folded("Thinking", part.text.trim());
    case "file":
      return `[Attachment: ${oneLine(part.filename ?? part.mediaType)}]`;
    case "data-compozy-event": {
      // A state line without words (a session starting) is the timeline's, not the file's.
      const words = oneLine(part.data.text ?? part.data.title ?? "");
      return words === "" ? "" : `_${words}_`;
    }
    case "data-compozy-permission": {
      const decision = part.data.decision ?? "waiting";
      return `> Permission asked: ${oneLine(part.data.title ?? part.data.action ?? "a tool call")} · ${oneLine(decision)}`;
    }
    case "data-compozy-compaction": {
      const item = part.data;
      const lines = [`> **Context compacted** · ${item.status} · started ${item.started_at}`];
      if (item.error) lines.push(`>`, `> ${oneLine(item.error)}`);
      const summary = item.summary?.trim();
      const label = item.status === "completed" ? "Summary" : "Partial summary";
      return summary ? `${lines.join("\n")}\n\n${folded(label, summary)}` : lines.join("\n");
    }
    default:
      return toolMarkdown(part);
  }
}

function toolMarkdown(part: Extract<KnownPart, { toolCallId: string }>): string {
  const title = oneLine(part.title ?? toolNameOf(part));
  const state = TOOL_STATE_WORDS[part.state] ?? part.state;
  const body: string[] = [];
  const input = part.input ?? part.rawInput;
  if (input !== undefined) body.push(`Input:\n\n${fenced(asText(input))}`);
  if (part.output !== undefined) body.push(`Output:\n\n${fenced(outputText(part.output))}`);
  if (part.errorText) body.push(`Error:\n\n${fenced(part.errorText)}`);
  const summary = `Tool: ${title} · ${state}`;
  return body.length === 0 ? `- ${summary}` : folded(summary, body.join("\n\n"));
}

/** A `<details>` block; its summary line is escaped, its body left as Markdown. */
function folded(summary: string, body: string): string {
  return `<details>\n<summary>${escapeHtml(summary)}</summary>\n\n${body}\n\n</details>`;
}

/** A code fence longer than any run of backticks inside, so the text cannot close it. */
export function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}\n${text.replace(/\n+$/, "")}\n${fence}`;
}

/** ACP tool output (`{content: [{type: "content", content: {type: "text", text}}]}`) as its text. */
function outputText(output: unknown): string {
  const content = (output as { content?: unknown } | null)?.content;
  if (Array.isArray(content)) {
    const texts = content.flatMap((item) => {
      const inner = (item as { content?: { type?: unknown; text?: unknown } } | null)?.content;
      return inner?.type === "text" && typeof inner.text === "string" ? [inner.text] : [];
    });
    if (texts.length > 0) return texts.join("\n");
  }
  return asText(output);
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? String(value));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
