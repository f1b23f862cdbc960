// The load-bearing items of a span (ADR 0155): walks the transcript entries once and collects
// the person's messages, paths, commands, errors, identifiers, URLs and plan entries, each
// with where it was first mentioned and how often. Checking them is `check.ts`'s job.

import { asJsonObject, type JsonObject } from "../contract/json-value";
import type { Entry, Part } from "../contract/transcript";
import { type CommandLine, parseCommand } from "./command-line";
import { identifiersIn, pathsIn, urlsIn, withoutMentions } from "./mentions";
import type { AuditItemKind } from "./types";

/** What `check.ts` compares against the summary, per kind. */
export type Subject =
  | { type: "words"; text: string }
  | { type: "path"; path: string }
  | { type: "command"; command: CommandLine }
  | { type: "error"; text: string; about: string[] }
  | { type: "token"; token: string }
  | { type: "url"; url: string };

export type Candidate = {
  key: string;
  kind: AuditItemKind;
  label: string;
  entry_id: string;
  turn_id?: string;
  mentions: number;
  by_person: boolean;
  pinned: boolean;
  subject: Subject;
};

/** A label longer than this is shortened (a 1 MB paste stays a readable, bounded row). */
const LABEL_MAX_CHARS = 20_000;
const ERROR_LABEL_MAX_CHARS = 500;
/**
 * Of a longer text only this much is read for mentions and distinctive words: a 1 MB paste
 * costs what 100 kB costs, and its gist is in its first 100,000 characters anyway.
 */
const SCANNED_MAX_CHARS = 100_000;

function bounded(text: string, max: number): string {
  // Control characters other than tab and newline never reach a label.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  const clean = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "");
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}

export function textOf(entry: Entry): string {
  return entry.message.parts
    .map((part) => (part.type === "text" ? part.text : ""))
    .filter((text) => text.length > 0)
    .join("\n");
}

function metaOf(entry: Entry): JsonObject {
  return asJsonObject(entry.message.metadata) ?? {};
}

/** A user message the person wrote (not the maintenance turn a `/compact` runs as). */
export function isPersonMessage(entry: Entry): boolean {
  return entry.message.role === "user" && metaOf(entry).maintenance !== true;
}

export function turnIdOf(entry: Entry): string | undefined {
  const turnId = metaOf(entry).turn_id;
  return typeof turnId === "string" && turnId !== "" ? turnId : undefined;
}

const INPUT_PATH_KEYS = ["file_path", "filePath", "path", "notebook_path", "target_file"];

type ToolLike = Extract<Part, { toolCallId: string }>;

/** The paths a tool call names: its input's path fields, its locations and its diffs. */
function toolPaths(part: ToolLike): string[] {
  const paths: string[] = [];
  const input = asJsonObject(part.input);
  for (const key of INPUT_PATH_KEYS) {
    const value = input?.[key];
    if (typeof value === "string" && value.trim() !== "") paths.push(value.trim());
  }
  const output = asJsonObject(part.output);
  for (const list of [output?.locations, output?.diffs]) {
    if (!Array.isArray(list)) continue;
    for (const location of list) {
      const path = asJsonObject(location)?.path;
      if (typeof path === "string" && path.trim() !== "") paths.push(path.trim());
    }
  }
  return paths;
}

function toolCommand(part: ToolLike): string | undefined {
  const command = asJsonObject(part.input)?.command;
  if (typeof command === "string" && command.trim() !== "") return command.trim();
  if (Array.isArray(command) && command.every((arg) => typeof arg === "string")) {
    return command.join(" ").trim() || undefined;
  }
  const title = part.title?.trim();
  return title === undefined || title === "" || title === "Terminal" ? undefined : title;
}

/** Collects candidates, merging repeated mentions into the first one. */
export class Inventory {
  private readonly byKey = new Map<string, Candidate>();
  private turnId: string | undefined;

  constructor(private readonly pinned: ReadonlySet<string>) {}

  /** Forgets the current turn: what follows is not part of the turn of the last message. */
  startSpan(): void {
    this.turnId = undefined;
  }

  candidates(): Candidate[] {
    return [...this.byKey.values()];
  }

  /**
   * Counts one mention of `key`; only the first builds the item (`make`), so a path named a
   * thousand times costs a thousand map look-ups, not a thousand labels.
   */
  private note(
    entry: Entry,
    key: string,
    make: () => Omit<Candidate, "key" | "entry_id" | "mentions" | "pinned">,
  ): void {
    const existing = this.byKey.get(key);
    if (existing !== undefined) {
      existing.mentions += 1;
      return;
    }
    const candidate: Candidate = {
      key,
      ...make(),
      entry_id: entry.message.id,
      mentions: 1,
      pinned: false,
    };
    if (this.turnId !== undefined) candidate.turn_id = this.turnId;
    this.byKey.set(key, candidate);
  }

  /** One user message of the person: an instruction (or pinned, or the last request). */
  addPersonMessage(entry: Entry, kind: "instruction" | "last_request"): void {
    this.turnId = turnIdOf(entry) ?? this.turnId;
    const text = textOf(entry);
    const scanned = text.slice(0, SCANNED_MAX_CHARS);
    const pinned = this.pinned.has(entry.message.id);
    const effective: AuditItemKind = kind === "instruction" && pinned ? "pinned" : kind;
    this.note(entry, `instruction:${entry.message.id}`, () => ({
      kind: effective,
      label: bounded(text, LABEL_MAX_CHARS),
      by_person: true,
      subject: { type: "words", text: withoutMentions(scanned) },
    }));
    const added = this.byKey.get(`instruction:${entry.message.id}`);
    if (added !== undefined) added.pinned = pinned;
    this.addProse(entry, scanned);
  }

  addEntry(entry: Entry): void {
    if (entry.message.role === "user") {
      this.turnId = turnIdOf(entry) ?? this.turnId;
      return;
    }
    for (const part of entry.message.parts) this.addPart(entry, part);
  }

  private addPart(entry: Entry, part: Part): void {
    if (part.type === "text") this.addProse(entry, part.text.slice(0, SCANNED_MAX_CHARS));
    else if ("toolCallId" in part) this.addTool(entry, part);
    else if (part.type === "data-compozy-event") this.addEvent(entry, part.data);
  }

  /** Paths, URLs and identifiers written in prose (the person's or the agent's). */
  private addProse(entry: Entry, text: string): void {
    for (const path of pathsIn(text)) this.addPath(entry, path);
    for (const url of urlsIn(text)) {
      this.note(entry, `url:${url}`, () => ({
        kind: "url",
        label: bounded(url, ERROR_LABEL_MAX_CHARS),
        by_person: false,
        subject: { type: "url", url },
      }));
    }
    for (const token of identifiersIn(text)) {
      this.note(entry, `identifier:${token}`, () => ({
        kind: "identifier",
        label: bounded(token, ERROR_LABEL_MAX_CHARS),
        by_person: false,
        subject: { type: "token", token },
      }));
    }
  }

  private addPath(entry: Entry, path: string): void {
    const clean = path.replace(/^\.\//, "");
    // A glob (`**/*.ts`) is a search pattern, not a file anyone worked on.
    if (clean.includes("*")) return;
    this.note(entry, `path:${clean}`, () => ({
      kind: "path",
      label: bounded(clean, ERROR_LABEL_MAX_CHARS),
      by_person: false,
      subject: { type: "path", path: clean },
    }));
  }

  private addTool(entry: Entry, part: ToolLike): void {
    for (const path of new Set(toolPaths(part))) this.addPath(entry, path);
    const command = part.type === "tool-execute" ? toolCommand(part) : undefined;
    const parsed = command === undefined ? undefined : parseCommand(command);
    // A command's arguments name files too (`pytest tests/test_config.py`).
    if (command !== undefined) for (const path of pathsIn(command)) this.addPath(entry, path);
    if (command !== undefined && parsed !== undefined) {
      this.note(entry, `command:${command}`, () => ({
        kind: "command",
        label: bounded(command, ERROR_LABEL_MAX_CHARS),
        by_person: false,
        subject: { type: "command", command: parsed },
      }));
    }
    if (part.state !== "output-error") return;
    const what = command ?? part.title ?? part.type.slice("tool-".length);
    const error = part.errorText ?? "failed";
    const about = [...toolPaths(part), ...(parsed === undefined ? [] : [parsed.program])];
    this.note(entry, `error:${part.toolCallId}`, () => ({
      kind: "error",
      label: bounded(`${what}: ${error.split("\n")[0] ?? error}`, ERROR_LABEL_MAX_CHARS),
      by_person: false,
      subject: { type: "error", text: error.slice(0, SCANNED_MAX_CHARS), about },
    }));
  }

  private addEvent(entry: Entry, data: Record<string, unknown>): void {
    if (data.type === "plan") {
      this.addPlan(entry, data.entries);
      return;
    }
    const error = typeof data.error === "string" ? data.error.trim() : "";
    if (error === "") return;
    this.note(entry, `error:${entry.message.id}`, () => ({
      kind: "error",
      label: bounded(error.split("\n")[0] ?? error, ERROR_LABEL_MAX_CHARS),
      by_person: false,
      subject: { type: "error", text: error.slice(0, SCANNED_MAX_CHARS), about: [] },
    }));
  }

  private addPlan(entry: Entry, entries: unknown): void {
    if (!Array.isArray(entries)) return;
    for (const planEntry of entries) {
      const content = asJsonObject(planEntry)?.content;
      if (typeof content !== "string" || content.trim() === "") continue;
      this.note(entry, `plan:${content.trim()}`, () => ({
        kind: "plan",
        label: bounded(content.trim(), ERROR_LABEL_MAX_CHARS),
        by_person: false,
        subject: { type: "words", text: content },
      }));
      this.addProse(entry, content);
    }
  }
}
