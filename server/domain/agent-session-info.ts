// What real adapters say about the session besides the conversation: notices (ACP's own
// `notice`, and adapter notices that arrive as message chunks), modes, config options and
// the model name. Pure: each turns an ACP payload into ledger row content (snake_case,
// as stored), or says it is not one (ADR 0090).

import { isJsonObject } from "../../src/contract/json-value";
import type { ContentBlock } from "./acp-update";

export type NoticeContent = {
  severity: string;
  title: string;
  description?: string;
  /** `acp`: a `notice` update; `message_chunk`: an adapter notice sent as a message chunk. */
  source: "acp" | "message_chunk";
  _meta?: Record<string, unknown>;
};

const TITLE_MAX = 200;

/** A notice's title is its first line (Markdown emphasis dropped), the rest its description. */
function splitNoticeText(text: string): { title: string; description?: string } {
  const trimmed = text.trim();
  const newline = trimmed.indexOf("\n");
  const first = (newline === -1 ? trimmed : trimmed.slice(0, newline)).trim();
  const rest = newline === -1 ? "" : trimmed.slice(newline + 1).trim();
  const title = first.length > TITLE_MAX ? `${first.slice(0, TITLE_MAX - 1)}…` : first;
  const description = first.length > TITLE_MAX ? trimmed : rest;
  return description === "" ? { title } : { title, description };
}

// Codex sends its warning events as plain message chunks without a message id; its real
// replies always carry one (`msg_N`). These prefixes are the ones it uses.
const CODEX_WARNING = /^(?:Config warning|Warning):\s/;

/**
 * An agent message chunk that is an adapter's notice rather than the model's words: no
 * `messageId`, and either Claude Code's informational `_meta` or a Codex warning line.
 */
export function noticeFromMessageChunk(update: {
  messageId?: string | null | undefined;
  content: ContentBlock;
  _meta?: Record<string, unknown> | null | undefined;
}): NoticeContent | undefined {
  if (typeof update.messageId === "string" && update.messageId !== "") return undefined;
  if (update.content.type !== "text") return undefined;
  const text = update.content.text;
  const claude = isJsonObject(update._meta) ? update._meta.claudeCode : undefined;
  if (isJsonObject(claude) && claude.kind === "informational") {
    const level = typeof claude.level === "string" && claude.level !== "" ? claude.level : "info";
    const split = splitNoticeText(text.replace(/^\*\*([^*\n]+)\*\*/, "$1"));
    if (split.title === "") return undefined;
    return { severity: level, ...split, source: "message_chunk", _meta: update._meta ?? {} };
  }
  if (CODEX_WARNING.test(text)) {
    return { severity: "warning", ...splitNoticeText(text), source: "message_chunk" };
  }
  return undefined;
}

/** The model an adapter names in `usage_update._meta` (Claude: `_claude/model`). */
export function modelOfUsageMeta(meta: unknown): string | undefined {
  if (!isJsonObject(meta)) return undefined;
  for (const [key, value] of Object.entries(meta)) {
    if ((key === "model" || key.endsWith("/model")) && typeof value === "string" && value !== "") {
      return value.slice(0, TITLE_MAX);
    }
  }
  return undefined;
}

export type ModeState = {
  current_mode_id: string;
  available_modes: { id: string; name: string; description?: string }[];
};

/** ACP `SessionModeState` (from session/new or session/load), or undefined when absent/bad. */
export function modeStateOf(raw: unknown): ModeState | undefined {
  if (!isJsonObject(raw) || typeof raw.currentModeId !== "string") return undefined;
  const modes = Array.isArray(raw.availableModes) ? raw.availableModes : [];
  const available: ModeState["available_modes"] = [];
  for (const mode of modes) {
    // Invalid items are skipped, as ACP's schema says.
    if (!isJsonObject(mode) || typeof mode.id !== "string" || typeof mode.name !== "string")
      continue;
    available.push({
      id: mode.id,
      name: mode.name,
      ...(typeof mode.description === "string" ? { description: mode.description } : {}),
    });
  }
  return { current_mode_id: raw.currentModeId, available_modes: available };
}

/** One config option in CompozyOS's payload shape (`SessionConfigOptionPayload`). */
export type ConfigOption = {
  id: string;
  label: string;
  description?: string;
  /** ACP's option type: `select`, `boolean`, or a newer one kept verbatim. */
  kind: string;
  category?: string;
  current?: string;
  values?: { value: string; label: string; description?: string; group?: string }[];
};

function selectValues(options: unknown): NonNullable<ConfigOption["values"]> {
  const values: NonNullable<ConfigOption["values"]> = [];
  if (!Array.isArray(options)) return values;
  for (const item of options) {
    if (!isJsonObject(item)) continue;
    // Grouped options: `{group, name, options: [...]}`.
    if (Array.isArray(item.options)) {
      const group = typeof item.name === "string" ? item.name : undefined;
      for (const value of selectValues(item.options)) {
        values.push(group === undefined ? value : { ...value, group });
      }
      continue;
    }
    if (typeof item.value !== "string" || typeof item.name !== "string") continue;
    values.push({
      value: item.value,
      label: item.name,
      ...(typeof item.description === "string" ? { description: item.description } : {}),
    });
  }
  return values;
}

/** ACP `configOptions`, invalid items skipped, in CompozyOS's field names. */
export function configOptionsOf(raw: unknown): ConfigOption[] {
  if (!Array.isArray(raw)) return [];
  const options: ConfigOption[] = [];
  for (const item of raw) {
    if (!isJsonObject(item) || typeof item.id !== "string" || typeof item.name !== "string")
      continue;
    const kind = typeof item.type === "string" ? item.type : "select";
    const option: ConfigOption = { id: item.id, label: item.name, kind };
    if (typeof item.description === "string") option.description = item.description;
    if (typeof item.category === "string") option.category = item.category;
    if (typeof item.currentValue === "string") option.current = item.currentValue;
    else if (typeof item.currentValue === "boolean") option.current = String(item.currentValue);
    if (kind === "select") option.values = selectValues(item.options);
    options.push(option);
  }
  return options;
}
