// What a text mentions that the audit tracks: URLs, file paths and code identifiers. Each
// finder is a single linear regex pass, so a 1 MB message costs milliseconds.

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`()[\]{}|\\^]+/g;
/** Punctuation that ends a sentence rather than a URL or path. */
const TRAILING = /[.,;:!?*_~]+$/;

/** A URL as compared: without its scheme, a trailing slash or sentence punctuation. */
export function normalizeUrl(url: string): string {
  return url
    .replace(TRAILING, "")
    .replace(/^https?:\/\//, "")
    .replace(/\/$/, "");
}

export function urlsIn(text: string): string[] {
  if (!text.includes("://")) return [];
  return [...text.matchAll(URL_PATTERN)].map((match) => match[0].replace(TRAILING, ""));
}

/**
 * A path in prose: segments joined by `/` ending in a name with an extension (`src/auth.ts`,
 * `/home/user/notes.md`, `./a/b.json`), or a bare file name with a known source extension
 * (`auth.ts`). Version numbers (`0.101.0`) and abbreviations (`e.g.`) are not paths.
 */
const SOURCE_EXTENSIONS =
  "ts|tsx|js|jsx|mjs|cjs|json|md|py|rs|go|rb|java|kt|c|h|cc|cpp|hpp|cs|css|scss|html|sql|sh|yml|yaml|toml|lock|txt|env|vue|svelte|swift|php|ini|cfg|conf|xml|proto|graphql";
const PATH_PATTERN = new RegExp(
  String.raw`(?<![\w.@/:-])(?:~|\.{1,2})?\/?(?:[\w.-]+\/)+[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,7}(?![\w/-])` +
    String.raw`|(?<![\w.@/:-])[\w-]+\.(?:${SOURCE_EXTENSIONS})(?![\w/-])`,
  "g",
);

export function pathsIn(text: string): string[] {
  // Every path the pattern finds has a dot before its extension.
  if (!text.includes(".")) return [];
  const found: string[] = [];
  const prose = text.includes("://") ? text.replace(URL_PATTERN, " ") : text;
  for (const match of prose.matchAll(PATH_PATTERN)) {
    found.push(match[0].replace(TRAILING, ""));
  }
  return found;
}

/** The last segment of a path: what "the summary names its file name" looks for. */
export function fileNameOf(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

// Only identifier-shaped tokens match (an inner capital or underscore, or a tracker key), so
// the engine skips plain words at once. A member access (`session.refreshToken`) counts; a
// file name's stem (`authToken.ts`) does not.
const IDENTIFIER_PATTERN = new RegExp(
  String.raw`(?<![\w$/-])(?:[A-Z][A-Z0-9]+-\d+|[A-Za-z_$][\w$]*?(?:[a-z0-9][A-Z]|[A-Za-z0-9]_[A-Za-z0-9])[\w$]*)(?![\w$/-]|\.(?:${SOURCE_EXTENSIONS})\b)`,
  "g",
);

/**
 * Code identifiers: camelCase or PascalCase with an inner capital (`refreshToken`),
 * snake_case or SCREAMING_CASE (`max_retries`, `API_KEY`), and tracker keys (`AUTH-142`).
 * Plain words, even capitalised ones, are not identifiers.
 */
function isIdentifier(token: string): boolean {
  if (token.length < 3) return false;
  if (/^[A-Z][A-Z0-9]+-\d+$/.test(token)) return true;
  if (token.includes("-")) return false;
  if (/^_+$|^\$+$/.test(token)) return false;
  if (/[a-z0-9][A-Z]/.test(token)) return true;
  return /[A-Za-z0-9]_[A-Za-z0-9]/.test(token);
}

export function identifiersIn(text: string): string[] {
  const found: string[] = [];
  const prose = text.includes("://") ? text.replace(URL_PATTERN, " ") : text;
  for (const match of prose.matchAll(IDENTIFIER_PATTERN)) {
    if (isIdentifier(match[0])) found.push(match[0]);
  }
  return found;
}

/**
 * The text without its URLs and paths: an instruction's distinctive words are its own words,
 * not the segments of `src/features/context/meter.tsx` (paths and URLs are checked as items).
 */
export function withoutMentions(text: string): string {
  return text.replace(URL_PATTERN, " ").replace(PATH_PATTERN, " ");
}
