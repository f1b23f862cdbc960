import type { DynamicToolPart, ToolPart } from "../../contract/transcript";

/** A `tool-<name>` part or a `dynamic-tool` one (CompozyOS's, while the tool has no kind yet). */
export type AnyToolPart = ToolPart | DynamicToolPart;

export type ToolStateView = { label: string; tone: "running" | "done" | "failed" };

const STATES: Record<AnyToolPart["state"], ToolStateView> = {
  "input-streaming": { label: "preparing", tone: "running" },
  "input-available": { label: "running", tone: "running" },
  "output-available": { label: "done", tone: "done" },
  "output-error": { label: "failed", tone: "failed" },
};

export function toolState(part: AnyToolPart): ToolStateView {
  return STATES[part.state];
}

/** `tool-read` → `read`; a `dynamic-tool` names its tool in `toolName`. */
export function toolKind(part: AnyToolPart): string {
  if (part.type === "dynamic-tool") return part.toolName?.trim() || "tool";
  return part.type.slice("tool-".length) || "other";
}

/** The title, else the tool's kind: CompozyOS's tool parts may have no title. */
export function toolTitle(part: AnyToolPart): string {
  return part.title?.trim() || `Tool call: ${toolKind(part)}`;
}

const MAX_SHOWN = 20_000;

/** Tool input/output as text: strings verbatim, anything else as indented JSON, capped. */
export function toolPayloadText(value: unknown): string {
  const text =
    typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? String(value));
  return text.length > MAX_SHOWN
    ? `${text.slice(0, MAX_SHOWN)}\n… (${text.length - MAX_SHOWN} more characters)`
    : text;
}
