// What the demo agent says. Everything is a pure function of the prompt and the turn number,
// so the same conversation always produces the same frames. A reply may carry a thought and
// tool calls; "decision" and "files" feed the conversation memory that summaries are made of.
import type {
  PermissionOption,
  ToolCallContent,
  ToolCallLocation,
  ToolKind,
} from "@agentclientprotocol/sdk";
import { estimateTokens } from "./context-usage";
import { fillAnswer } from "./fill-answer";

export type ToolStep = {
  title: string;
  toolKind: ToolKind;
  input: Record<string, string>;
  output: string;
  fails: boolean;
  /** Tokens the tool's result adds to the context, when not its output's own length. */
  contextTokens?: number;
  /** Asked for with `session/request_permission` before it runs (`/demo approvals`). */
  permission?: PermissionAsk;
};

export type PermissionAsk = {
  options: PermissionOption[];
  content?: ToolCallContent[];
  locations?: ToolCallLocation[];
};

export type Reply = {
  markdown: string;
  thought: string | null;
  tools: ToolStep[];
  decision: string | null;
  files: string[];
  /** `/demo wait`: real milliseconds before anything is said, whatever `--speed`. */
  holdMs?: number;
  /** The message when it depends on the person's answers: the titles of the tools refused. */
  conclude?: (refused: readonly string[]) => string;
};

const FILE_PATTERN = /[\w./-]+\.(?:ts|tsx|js|mjs|json|md|css|html|sql|py|rs|go|ya?ml|toml)\b/g;

function filesMentioned(text: string): string[] {
  return [...new Set(text.match(FILE_PATTERN) ?? [])];
}

function topicOf(prompt: string): string {
  const flat = prompt.replace(/\s+/g, " ").trim();
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat || "this";
}

function readStep(file: string): ToolStep {
  return {
    title: `Read ${file}`,
    toolKind: "read",
    input: { path: file },
    output: `${file}: 42 lines, last changed in the previous turn`,
    fails: false,
  };
}

function searchStep(topic: string): ToolStep {
  const keyword = topic.split(" ").find((word) => word.length > 3) ?? topic;
  return {
    title: `Search the workspace for "${keyword}"`,
    toolKind: "search",
    input: { query: keyword },
    output: `3 matches for "${keyword}" in src/ and server/`,
    fails: false,
  };
}

/** An ordinary reply to an ordinary prompt: one of three shapes, chosen by the turn number. */
export function composeReply(prompt: string, turnNumber: number): Reply {
  const topic = topicOf(prompt);
  const files = filesMentioned(prompt);
  const thought =
    turnNumber % 2 === 1
      ? `The user asks about "${topic}". Check what is already there before changing anything.`
      : null;
  const tools =
    files.length > 0
      ? files.slice(0, 2).map(readStep)
      : turnNumber % 3 === 2
        ? [searchStep(topic)]
        : [];
  const fileList = files.length > 0 ? files.map((file) => `\`${file}\``).join(", ") : "no files";
  switch (turnNumber % 3) {
    case 1: {
      const decision = `Approach "${topic}" in small steps, each behind a test.`;
      return {
        markdown: [
          `Here is how I would approach **${topic}**:`,
          "",
          "1. Read what is there and note its constraints.",
          "2. Change one thing at a time, behind a test.",
          "3. Check the result against the real process, not a mock.",
          "",
          `Decision: *${decision}*`,
        ].join("\n"),
        thought,
        tools,
        decision,
        files,
      };
    }
    case 2: {
      const decision = `Keep frames for "${topic}" in receive order.`;
      return {
        markdown: [
          `On **${topic}**: yes, this is doable.`,
          "",
          `- It touches ${fileList}.`,
          "- The risky part is ordering, so frames stay in receive order.",
          "",
          "```ts",
          "export function nextStep(step: number): number {",
          "  return step + 1;",
          "}",
          "```",
        ].join("\n"),
        thought,
        tools,
        decision,
        files,
      };
    }
    default:
      return {
        markdown: [
          `Where **${topic}** stands:`,
          "",
          "| item | state |",
          "|---|---|",
          "| plan | agreed |",
          `| files | ${fileList} |`,
          "| tests | to write |",
          "",
          "Next I would write the failing test first.",
        ].join("\n"),
        thought,
        tools,
        decision: `Write the failing test for "${topic}" first.`,
        files,
      };
  }
}

/** `/demo markdown`: every construct the timeline's Markdown renderer must handle. */
export function markdownShowcaseReply(): Reply {
  return {
    markdown: [
      "# Markdown showcase",
      "",
      "## A table",
      "",
      "| scenario | statuses |",
      "|---|---|",
      "| plain | `in_progress` → `completed` |",
      "| paused | `in_progress` → `_paused` → `completed` |",
      "",
      "## A code block",
      "",
      "```ts",
      'const status: string = "completed";',
      "console.log(status);",
      "```",
      "",
      "### A link and an image",
      "",
      "Read the [ACP compaction RFD](https://agentclientprotocol.com/rfds/session-compaction).",
      "",
      "![Tideline logo](https://example.com/tideline.png)",
      "",
      "> A quote, *emphasis*, **strong** and ~~strike~~.",
    ].join("\n"),
    thought: null,
    tools: [],
    decision: null,
    files: [],
  };
}

/** `/demo tools`: several tool calls, the third one failing. */
export function toolsShowcaseReply(): Reply {
  const tools: ToolStep[] = [
    readStep("src/contract/usage.ts"),
    searchStep("compaction intake"),
    {
      title: "Run npm test",
      toolKind: "execute",
      input: { command: "npm test" },
      output: "1 failed: expected 'completed', received 'in_progress'",
      fails: true,
    },
    {
      title: "Edit server/domain/compaction.ts",
      toolKind: "edit",
      input: { path: "server/domain/compaction.ts" },
      output: "Applied 1 change",
      fails: false,
    },
  ];
  return {
    markdown: "I ran four tools: the test run failed, so I edited the compaction rule.",
    thought: "Several tools: read, search, run the tests, then edit.",
    tools,
    decision: "Fix the compaction rule the failing test pointed at.",
    files: ["src/contract/usage.ts", "server/domain/compaction.ts"],
  };
}

/**
 * The most text a fill reply streams. Past it, the rest of the growth is a file read whose
 * result sits in the context unseen, as it would with a real agent: a browser re-rendering a
 * half-megabyte reply on every chunk is not what the demo is for.
 */
const FILL_TEXT_MAX_CHARS = 24_000;

/** `/demo fill`: one long reply, plus a big file read when the reply alone would be huge. */
export function fillReply(tokens: number, percent: number): Reply {
  const intro = `*Demo: this answer fills the context to about ${percent} % of the window.*\n\n`;
  const wanted = Math.min(FILL_TEXT_MAX_CHARS, Math.max(0, tokens * 4 - intro.length));
  // Whole sections of a realistic answer (headings, prose, lists, code): never cut mid-word;
  // whatever they leave short, the file read below makes up.
  const body = fillAnswer(wanted);
  const markdown = (body === "" ? intro : intro + body).trimEnd();
  const rest = tokens - estimateTokens(markdown);
  const tools: ToolStep[] =
    rest > 0
      ? [
          {
            title: "Read every source file in the workspace",
            toolKind: "read",
            input: { path: "**/*.ts" },
            output: `Read the workspace's sources: ${rest.toLocaleString("en-US")} tokens now in context.`,
            fails: false,
            contextTokens: rest,
          },
        ]
      : [];
  return { markdown, thought: null, tools, decision: null, files: [] };
}

export function textReply(markdown: string): Reply {
  return { markdown, thought: null, tools: [], decision: null, files: [] };
}

/** Splits text into chunks of about `size` characters, cutting after whitespace when it can. */
export function chunkText(text: string, size = 48): string[] {
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > size) {
    const space = rest.lastIndexOf(" ", size);
    const cut = space > size / 2 ? space + 1 : size;
    chunks.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest.length > 0 || chunks.length === 0) chunks.push(rest);
  return chunks;
}
