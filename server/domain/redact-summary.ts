// What a compaction summary becomes before it is stored in a snapshot row
// (docs/ledger.md §3.5–3.6): content blocks joined into one Markdown string, secrets
// redacted, then capped at 16 KiB of UTF-8. Redaction runs first so a cut can never leave
// half a secret behind the cap marker.
import type { ContentBlock } from "./acp-update";

export const SUMMARY_MAX_BYTES = 16_384;
export const TRUNCATION_SUFFIX = " [summary truncated]";
export const REDACTED = "[redacted]";

/** One line standing for a block that is not text (the SPA never loads remote media). */
export function blockPlaceholder(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return "[image]";
    case "audio":
      return "[audio]";
    case "resource_link":
      return `[resource: ${oneLine(block.name)}]`;
    case "resource":
      return `[resource: ${oneLine(block.resource.uri)}]`;
  }
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, " ").slice(0, 200);
}

/**
 * Text blocks are fragments of one stream, so they concatenate as they are; a non-text
 * block gets a line of its own. `undefined` for an empty summary.
 */
export function joinSummaryBlocks(blocks: readonly ContentBlock[]): string | undefined {
  let text = "";
  for (const block of blocks) {
    if (block.type === "text") {
      text += block.text;
      continue;
    }
    if (text.length > 0 && !text.endsWith("\n")) text += "\n";
    text += `${blockPlaceholder(block)}\n`;
  }
  return text.length > 0 ? text : undefined;
}

// Each rule keeps the part that says what the secret was (a key name, "Bearer") and
// replaces only the value, so a reader still understands the sentence.
const SECRET_RULES: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
    REDACTED,
  ],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  [/\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g, REDACTED],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, REDACTED],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/g, REDACTED],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/g, REDACTED],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{35}\b/g, REDACTED],
  [/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, REDACTED],
  // `password=…`, `API_KEY: "…"`, `"secret": "…"`: a secret-ish key name, `=` or a quoted
  // `:` value. A bare `Password: please reset it` in prose is left alone.
  [
    /\b([A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?)["']?)(\s*=\s*)("[^"\n]*"|'[^'\n]*'|[^\s,;&"'`]+)/gi,
    `$1$2${REDACTED}`,
  ],
  [
    /\b([A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?)["']?)(\s*:\s*)("[^"\n]+"|'[^'\n]+')/gi,
    `$1$2"${REDACTED}"`,
  ],
];

export function redactSecrets(text: string): string {
  let result = text;
  for (const [pattern, replacement] of SECRET_RULES) {
    result = result.replace(pattern, replacement);
  }
  return result;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * At most 16,384 bytes of UTF-8. A longer text is cut on a character boundary so that it
 * plus the suffix fits in the limit exactly or just under it.
 */
export function capSummary(text: string): string {
  const bytes = encoder.encode(text);
  if (bytes.length <= SUMMARY_MAX_BYTES) return text;
  let cut = SUMMARY_MAX_BYTES - encoder.encode(TRUNCATION_SUFFIX).length;
  // Back off continuation bytes (10xxxxxx) so the cut lands before a character's first byte.
  while (cut > 0 && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut -= 1;
  return decoder.decode(bytes.subarray(0, cut)) + TRUNCATION_SUFFIX;
}

/** The summary string a snapshot row stores, or `undefined` when there is none. */
export function exposeSummary(blocks: readonly ContentBlock[]): string | undefined {
  const joined = joinSummaryBlocks(blocks);
  return joined === undefined ? undefined : capSummary(redactSecrets(joined));
}
