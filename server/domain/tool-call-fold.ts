// How tool rows fold into a tool part (ADR 0093): `tool_call` creates the part and each
// `tool_call_update` patches it, keeping every diff and each terminal's output. Pure, like
// the rest of the transcript fold (`transcript-fold.ts`).

import { asJsonObject } from "../../src/contract/json-value";
import type { DaemonMessage, ToolPart } from "../../src/contract/transcript";

/** A tool row's content: the ACP `tool_call` / `tool_call_update` fields, verbatim. */
export type ToolFields = {
  toolCallId: string;
  title?: string | null | undefined;
  kind?: string | null | undefined;
  status?: string | null | undefined;
  content?: unknown[] | null | undefined;
  locations?: unknown[] | null | undefined;
  rawInput?: unknown;
  rawOutput?: unknown;
  _meta?: unknown;
};

/** What a tool did, in the tool part's `output` (ADR 0093). */
type ToolOutput = {
  /** ACP tool call content, verbatim: `content` blocks, `diff` {path, oldText, newText}, `terminal`. */
  content?: unknown[];
  /**
   * Every `diff` block seen, newest per path: ACP replaces `content` on each update, and a
   * Write that is refused or finishes reports text there instead of the diff it proposed.
   */
  diffs?: unknown[];
  raw_output?: unknown;
  /** Output the agent reported per terminal id (Codex: `_meta.terminal_output_delta`). */
  terminals?: Record<string, TerminalOutput>;
  locations?: unknown[];
};
type TerminalOutput = {
  output: string;
  /** True once older output was dropped to keep the newest TERMINAL_OUTPUT_MAX characters. */
  truncated: boolean;
  exit_code?: number | null;
  signal?: string | null;
};

/** Per terminal, the newest this many characters of output are kept. */
const TERMINAL_OUTPUT_MAX = 64 * 1024;

const TOOL_STATE: Record<string, ToolPart["state"]> = {
  pending: "input-streaming",
  in_progress: "input-available",
  completed: "output-available",
  failed: "output-error",
};

function textOfToolContent(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const item of content) {
    const block = (item as { content?: { type?: unknown; text?: unknown } } | null)?.content;
    if (block?.type === "text" && typeof block.text === "string") texts.push(block.text);
  }
  return texts.length > 0 ? texts.join("\n") : undefined;
}

function errorTextOf(part: ToolPart, frame: ToolFields): string {
  if (typeof frame.rawOutput === "string" && frame.rawOutput.length > 0) return frame.rawOutput;
  const error = (frame.rawOutput as { error?: unknown } | null | undefined)?.error;
  if (typeof error === "string" && error.length > 0) return error;
  return textOfToolContent(frame.content) ?? part.errorText ?? "Tool call failed";
}

/** The old output as ToolOutput; a part folded before ADR 0093 held rawOutput or content. */
function previousOutput(old: ToolPart | undefined): ToolOutput {
  const output = asJsonObject(old?.output);
  if (output === undefined) return {};
  return { ...(output as ToolOutput) };
}

function withTerminalMeta(output: ToolOutput, meta: unknown): void {
  const delta = asJsonObject(asJsonObject(meta)?.terminal_output_delta);
  const exit = asJsonObject(asJsonObject(meta)?.terminal_exit);
  for (const event of [delta, exit]) {
    if (event === undefined || typeof event.terminal_id !== "string") continue;
    const id = event.terminal_id;
    const terminals = { ...output.terminals };
    const terminal: TerminalOutput = { ...(terminals[id] ?? { output: "", truncated: false }) };
    if (event === delta && typeof event.data === "string") {
      const joined = terminal.output + event.data;
      if (joined.length > TERMINAL_OUTPUT_MAX) {
        terminal.output = joined.slice(joined.length - TERMINAL_OUTPUT_MAX);
        terminal.truncated = true;
      } else {
        terminal.output = joined;
      }
    }
    if (event === exit) {
      if (typeof event.exit_code === "number" || event.exit_code === null) {
        terminal.exit_code = event.exit_code;
      }
      if (typeof event.signal === "string" || event.signal === null) terminal.signal = event.signal;
    }
    terminals[id] = terminal;
    output.terminals = terminals;
  }
}

function foldOutput(old: ToolPart | undefined, frame: ToolFields): ToolOutput | undefined {
  const output = previousOutput(old);
  if (frame.content !== undefined && frame.content !== null) {
    output.content = frame.content;
    const diffs = frame.content.filter(
      (block) =>
        asJsonObject(block)?.type === "diff" && typeof asJsonObject(block)?.path === "string",
    );
    if (diffs.length > 0) {
      const paths = new Set(diffs.map((block) => asJsonObject(block)?.path));
      output.diffs = [
        ...(output.diffs ?? []).filter((block) => !paths.has(asJsonObject(block)?.path)),
        ...diffs,
      ];
    }
  }
  if (frame.rawOutput !== undefined) output.raw_output = frame.rawOutput;
  if (frame.locations !== undefined && frame.locations !== null && frame.locations.length > 0) {
    output.locations = frame.locations;
  }
  withTerminalMeta(output, frame._meta);
  return Object.keys(output).length === 0 ? undefined : output;
}

/**
 * `tool_call` creates the part, `tool_call_update` patches it: a field that is absent or
 * null leaves the previous value (ACP sends only what changed). Parts after the tool part
 * (its permission requests) are kept.
 */
export function foldToolCall(
  id: string,
  previous: DaemonMessage | undefined,
  frame: ToolFields,
): DaemonMessage {
  const old = previous?.parts[0] as ToolPart | undefined;
  const kind = frame.kind ?? (old ? old.type.slice("tool-".length) : "other");
  const input = frame.rawInput !== undefined ? frame.rawInput : old?.input;
  let state: ToolPart["state"] = frame.status
    ? (TOOL_STATE[frame.status] ?? "input-available")
    : (old?.state ?? "input-streaming");
  // CompozyOS: input-streaming only until the input is known.
  if (state === "input-streaming" && input !== undefined) state = "input-available";
  const part: ToolPart = { type: `tool-${kind}`, toolCallId: frame.toolCallId, state };
  // The title is optional (CompozyOS omits an empty one); it is never made up.
  const title = frame.title ?? old?.title;
  if (title !== undefined && title !== "") part.title = title;
  // CompozyOS writes both fields once the input is known (`{}` when nobody said), and
  // AI SDK clients refuse a part without them (ADR 0190).
  if (input !== undefined) part.input = input;
  else if (state !== "input-streaming") part.input = {};
  const output = foldOutput(old, frame);
  if (output !== undefined) part.output = output;
  else if (state === "output-available") part.output = {};
  if (part.state === "output-error") part.errorText = errorTextOf(part, frame);
  return { id, role: "assistant", parts: [part, ...(previous?.parts.slice(1) ?? [])] };
}

/** The ACP `toolCall` of a permission request, as tool fields for a tool part. */
export function toolFieldsOfRequest(
  toolCall: Record<string, unknown>,
  toolCallId: string,
): ToolFields {
  const fields: ToolFields = { toolCallId };
  if (typeof toolCall.title === "string") fields.title = toolCall.title;
  if (typeof toolCall.kind === "string") fields.kind = toolCall.kind;
  if (typeof toolCall.status === "string") fields.status = toolCall.status;
  if (Array.isArray(toolCall.content)) fields.content = toolCall.content;
  if (Array.isArray(toolCall.locations)) fields.locations = toolCall.locations;
  if (toolCall.rawInput !== undefined) fields.rawInput = toolCall.rawInput;
  return fields;
}
