// What a tool call did, as blocks to show: the command it runs, its ACP content (`diff`,
// `content` text, `terminal` with the output the agent reported), and its raw input/output
// (shown only behind a toggle). Reads the daemon's `output` {content, raw_output, terminals}
// (ADR 0093) and, from an older daemon or CompozyOS, any other value as raw output.

import { asJsonObject } from "../../contract/json-value";
import { type DiffContent, diffContentOf } from "./diff-content";

export type TerminalView = {
  terminalId: string;
  output: string;
  truncated: boolean;
  exitCode?: number | null;
  signal?: string | null;
};

export type ToolBlock =
  /** `proposed`: kept from an earlier update after the agent replaced its content (a refused Write). */
  | { kind: "diff"; diff: DiffContent; proposed?: boolean }
  | { kind: "text"; text: string }
  /** Output that is only a string (an older daemon, CompozyOS): shown as it is. */
  | { kind: "plain"; text: string }
  | { kind: "terminal"; terminal: TerminalView }
  | { kind: "other"; label: string };

export type ToolOutputView = {
  command?: string;
  blocks: ToolBlock[];
  /** Why the call failed, said once: a text block saying the same is not repeated. */
  error?: string;
  rawInput?: unknown;
  rawOutput?: unknown;
};

/** `rawInput.command` as one line: a string, or an argv array joined with spaces. */
export function commandOf(input: unknown): string | undefined {
  const command = asJsonObject(input)?.command;
  if (typeof command === "string" && command.trim() !== "") return command;
  if (Array.isArray(command) && command.length > 0 && command.every((a) => typeof a === "string")) {
    return command.join(" ");
  }
  return undefined;
}

function terminalOf(id: string, reported: unknown): TerminalView {
  const data = asJsonObject(reported);
  const view: TerminalView = {
    terminalId: id,
    output: typeof data?.output === "string" ? data.output : "",
    truncated: data?.truncated === true,
  };
  if (typeof data?.exit_code === "number" || data?.exit_code === null) {
    view.exitCode = data.exit_code;
  }
  if (typeof data?.signal === "string") view.signal = data.signal;
  return view;
}

/** One ACP `ToolCallContent` block as something to show. */
function blockOf(raw: unknown, terminals: Record<string, unknown>, shown: Set<string>): ToolBlock {
  const block = asJsonObject(raw);
  const diff = diffContentOf(block);
  if (diff) return { kind: "diff", diff };
  if (block?.type === "terminal" && typeof block.terminalId === "string") {
    shown.add(block.terminalId);
    return {
      kind: "terminal",
      terminal: terminalOf(block.terminalId, terminals[block.terminalId]),
    };
  }
  if (block?.type === "content") {
    const inner = asJsonObject(block.content);
    if (inner?.type === "text" && typeof inner.text === "string") {
      return { kind: "text", text: inner.text };
    }
    if (inner?.type === "resource_link" && typeof inner.uri === "string") {
      return { kind: "other", label: `Link: ${inner.uri}` };
    }
    const type = typeof inner?.type === "string" ? inner.type : "unknown";
    return { kind: "other", label: `A ${type} block (see raw)` };
  }
  const type = typeof block?.type === "string" ? block.type : "unknown";
  return { kind: "other", label: `A ${type} block (see raw)` };
}

/** Is this the daemon's structured output ({content?, raw_output?, terminals?…}) ? */
function isStructuredOutput(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  const known = ["content", "diffs", "raw_output", "terminals", "locations"];
  return keys.length > 0 && keys.every((key) => known.includes(key));
}

const TEXT_FIELDS = ["output", "stdout", "text", "result", "message"];

/** The one text of an object that only wraps a text, as raw outputs often do. */
function wrappedText(value: Record<string, unknown>): string | undefined {
  const keys = Object.keys(value);
  if (keys.length !== 1 || !TEXT_FIELDS.includes(keys[0] as string)) return undefined;
  const text = value[keys[0] as string];
  return typeof text === "string" && text.trim() !== "" ? text : undefined;
}

/** The words of a text block, without the code fence an adapter may wrap them in. */
function unfenced(text: string): string {
  return text
    .trim()
    .replace(/^```[^\n]*\n([\s\S]*?)\n?```$/, "$1")
    .trim();
}

export function toolOutputView(part: {
  input?: unknown;
  output?: unknown;
  errorText?: string | undefined;
}): ToolOutputView {
  const view = blocksOf(part);
  const error = part.errorText?.trim();
  if (!error) return view;
  view.error = error;
  view.blocks = view.blocks.filter(
    (block) =>
      !((block.kind === "text" || block.kind === "plain") && unfenced(block.text) === error),
  );
  return view;
}

/** `{}` stands for "not reported" (CompozyOS writes it for an unknown input or output). */
function reported(value: unknown): unknown {
  const fields = asJsonObject(value);
  return fields !== undefined && Object.keys(fields).length === 0 ? undefined : value;
}

function blocksOf(tool: { input?: unknown; output?: unknown }): ToolOutputView {
  const part = { input: reported(tool.input), output: reported(tool.output) };
  const view: ToolOutputView = { blocks: [] };
  const command = commandOf(part.input);
  if (command !== undefined) view.command = command;
  if (part.input !== undefined) view.rawInput = part.input;
  const output = asJsonObject(part.output);
  if (typeof part.output === "string") {
    if (part.output !== "") view.blocks = [{ kind: "plain", text: part.output }];
    return view;
  }
  if (output === undefined || !isStructuredOutput(output)) {
    if (part.output !== undefined) view.rawOutput = part.output;
    // An agent's own wrapper ({"output": "…"}, {"stdout": "…"}): its text is what it said.
    const wrapped = output === undefined ? undefined : wrappedText(output);
    if (wrapped !== undefined) view.blocks = [{ kind: "plain", text: wrapped }];
    return view;
  }
  const terminals = asJsonObject(output.terminals) ?? {};
  const shown = new Set<string>();
  const content = Array.isArray(output.content) ? output.content : [];
  view.blocks = content.map((block) => blockOf(block, terminals, shown));
  // The daemon keeps every diff the call proposed (ADR 0093): one the content no longer
  // holds is still what the agent meant to change.
  const inContent = new Set(
    view.blocks.flatMap((block) => (block.kind === "diff" ? [block.diff.path] : [])),
  );
  const proposed = (Array.isArray(output.diffs) ? output.diffs : [])
    .map(diffContentOf)
    .filter((diff) => diff !== undefined && !inContent.has(diff.path))
    .map((diff): ToolBlock => ({ kind: "diff", diff: diff as DiffContent, proposed: true }));
  view.blocks = [...proposed, ...view.blocks];
  // Output reported for a terminal no content block names still belongs on screen.
  for (const [id, reported] of Object.entries(terminals)) {
    if (!shown.has(id)) view.blocks.push({ kind: "terminal", terminal: terminalOf(id, reported) });
  }
  if (output.raw_output !== undefined) view.rawOutput = output.raw_output;
  return view;
}

/** "exit 0", "exit 2", "killed by SIGTERM", or undefined while it runs. */
export function terminalStatus(terminal: TerminalView): string | undefined {
  if (terminal.signal) return `killed by ${terminal.signal}`;
  if (typeof terminal.exitCode === "number") return `exit ${terminal.exitCode}`;
  return undefined;
}

/**
 * At most `limit` lines unless expanded, and how many were left out: the first ones of a
 * diff, the last ones of a terminal (where a command's outcome is).
 */
export function boundedLines<T>(
  lines: readonly T[],
  limit: number,
  expanded: boolean,
  keep: "head" | "tail" = "head",
): { shown: readonly T[]; hidden: number } {
  if (expanded || lines.length <= limit) return { shown: lines, hidden: 0 };
  const shown = keep === "head" ? lines.slice(0, limit) : lines.slice(lines.length - limit);
  return { shown, hidden: lines.length - limit };
}
