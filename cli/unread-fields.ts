// The CLI reads a daemon's answers with the wire contract (src/contract/), whose response
// schemas drop the fields they do not name. `-o json` prints the daemon's own payload, so
// those fields are put back, as sent, around the values the contract checked (ADR 0150).
import { isJsonObject, type JsonObject } from "../src/contract/json-value";

/**
 * `read` (the parsed answer) with every field of `sent` it does not hold added back, at
 * every depth. A value the contract read wins over the one sent (a Go `null` slice read as
 * `[]`); keys keep the daemon's order.
 */
export function withUnreadFields<T>(read: T, sent: unknown): T {
  return merge(read, sent) as T;
}

function merge(read: unknown, sent: unknown): unknown {
  if (Array.isArray(read) && Array.isArray(sent) && read.length === sent.length) {
    return read.map((item, index) => merge(item, sent[index]));
  }
  if (isJsonObject(read) && isJsonObject(sent)) {
    const merged: JsonObject = { ...sent };
    for (const [key, value] of Object.entries(read)) merged[key] = merge(value, sent[key]);
    return merged;
  }
  return read;
}
