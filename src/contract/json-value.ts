// Reading the JSON the contract leaves open (`content: unknown`, ACP `rawInput`, `_meta`):
// one guard for "a plain object" and one for "text worth showing", shared by the SPA, the
// daemon and the CLI instead of a copy in each reader.

export type JsonObject = Record<string, unknown>;

/** A plain JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value as a plain object, or undefined. */
export function asJsonObject(value: unknown): JsonObject | undefined {
  return isJsonObject(value) ? value : undefined;
}

/** A string with something in it, trimmed; undefined for anything else or blank text. */
export function shownText(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}
