import type { ToolPart } from "../../contract/transcript";

export type ToolStateView = { label: string; tone: "running" | "done" | "failed" };

const STATES: Record<ToolPart["state"], ToolStateView> = {
  "input-available": { label: "running", tone: "running" },
  "output-available": { label: "done", tone: "done" },
  "output-error": { label: "failed", tone: "failed" },
};

export function toolState(part: ToolPart): ToolStateView {
  return STATES[part.state];
}

/** `tool-read` → `read`. */
export function toolKind(part: ToolPart): string {
  return part.type.slice("tool-".length) || "other";
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
