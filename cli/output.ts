// Output formats (`-o human|json|jsonl|toon`, `--json`), tables and colour. Human output
// is for people: aligned columns, a little colour only on a terminal that wants it.
// The others are for programs: the daemon's payload as JSON, one record per line, or
// TOON (the compact, LLM-friendly notation CompozyOS also offers).
import { encode as encodeToon } from "@toon-format/toon";

export const OUTPUT_FORMATS = ["human", "json", "jsonl", "toon"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export class UsageError extends Error {
  override name = "UsageError";
}

export function resolveFormat(output: string | undefined, json: boolean | undefined): OutputFormat {
  const wanted = output?.trim().toLowerCase();
  if (json) {
    if (wanted !== undefined && wanted !== "json") {
      throw new UsageError("--json cannot be combined with a non-json output format");
    }
    return "json";
  }
  if (wanted === undefined || wanted === "") return "human";
  const format = OUTPUT_FORMATS.find((name) => name === wanted);
  if (format === undefined) {
    throw new UsageError(`invalid output format "${output}" (human, json, jsonl or toon)`);
  }
  return format;
}

export type Stream = { write(text: string): unknown; isTTY?: boolean };

/** Colour only on a terminal, never with NO_COLOR set (https://no-color.org) or TERM=dumb. */
export function wantsColour(stream: Stream, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.TERM === "dumb") return false;
  return stream.isTTY === true;
}

export type Paint = {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
};

const sgr = (open: number, close: number) => (text: string) =>
  `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

export function paint(colour: boolean): Paint {
  return colour
    ? {
        bold: sgr(1, 22),
        dim: sgr(2, 22),
        green: sgr(32, 39),
        red: sgr(31, 39),
        yellow: sgr(33, 39),
      }
    : { bold: plain, dim: plain, green: plain, red: plain, yellow: plain };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping terminal escapes is the point
const ESCAPES = /\u001b\[[0-9;]*m/g;
const visibleLength = (text: string) => text.replace(ESCAPES, "").length;

/**
 * A cell as one line of plain text: control characters (an agent's summary, a hostile
 * event payload) never reach the terminal raw, and long values are cut.
 */
export function cell(value: unknown, max = 80): string {
  if (value === undefined || value === null || value === "") return "-";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: see above
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const TERMINAL_CONTROLS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing terminal controls is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Multi-line text from a daemon or an agent (a reply, an error) as the terminal should get
 * it: line breaks and tabs kept, every other control removed (ESC and so every CSI, OSC 8
 * link and title change; C1 controls; bidi overrides). CR goes too: it could overwrite a line.
 */
export function terminalText(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(TERMINAL_CONTROLS, "");
}

// The only escape sequences the CLI itself prints: the SGR codes of `paint`.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching our own SGR codes
const OWN_SGR = /\u001b\[(?:1|2|22|31|32|33|39)m/g;

/**
 * The last guard of human output: whatever reached a line unsanitized loses its controls;
 * only the CLI's own colour codes survive. (The agent's text was already cleaned where it
 * was composed; this keeps a forgotten spot from ever printing raw bytes.)
 */
export function humanSafe(text: string): string {
  let safe = "";
  let last = 0;
  for (const match of text.matchAll(OWN_SGR)) {
    safe += terminalText(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return safe + terminalText(text.slice(last));
}

export function renderTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  colours: Paint,
): string {
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => visibleLength(row[i] ?? ""))),
  );
  const line = (values: readonly string[]) =>
    values
      .map((value, i) =>
        i === values.length - 1
          ? value
          : value + " ".repeat((widths[i] ?? 0) - visibleLength(value)),
      )
      .join("  ")
      .trimEnd();
  return [colours.bold(line(headers)), ...rows.map(line)].join("\n");
}

export function renderSection(
  rows: readonly (readonly [string, string])[],
  colours: Paint,
): string {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${colours.dim(label.padEnd(width))}  ${value}`).join("\n");
}

export const toJson = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
export const toJsonLines = (values: readonly unknown[]) =>
  values.map((value) => `${JSON.stringify(value)}\n`).join("");
export const toToon = (name: string, value: unknown) => `${encodeToon({ [name]: value })}\n`;
