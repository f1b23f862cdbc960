// Who started a compaction, in words a person recognises. The daemon's `trigger` tells a
// requested compaction (`requested`) from the agent's own (`agent`). Who requested it comes
// from the user message that opened the compaction's turn: the reference daemon marks
// Compact now's message `maintenance` with the `requested_by` it recorded (`web`, `cli`,
// `tool`, `http`) and a `/compact` the person typed also `typed` (ADRs 0116, 0121); a daemon
// that passes a typed `/compact` to the agent as an ordinary prompt leaves an unmarked line.

import type { CompactionTrigger } from "../contract/history";
import { asJsonObject } from "../contract/json-value";
import { compactionOf, type Entry } from "../contract/transcript";

const REQUESTERS = ["web", "cli", "tool", "http"] as const;
type Requester = (typeof REQUESTERS)[number];

/** What the transcript says about who asked for one compaction. */
export type CompactionRequest = { typed?: string; requestedBy?: Requester };

export type CompactionOrigin =
  | { kind: "requested"; by: Requester | undefined }
  | { kind: "typed"; command: string; by: Requester | undefined }
  | { kind: "agent" };

const SLASH_COMMAND = /^\/(compact|compress)\s*$/;

function userText(entry: Entry): string | undefined {
  if (entry.message.role !== "user") return undefined;
  const part = entry.message.parts.find((candidate) => candidate.type === "text");
  return part && "text" in part ? part.text.trim() : undefined;
}

/** A `true` flag in a message's metadata, which is free-form on the wire. */
export function metadataFlag(metadata: unknown, flag: "maintenance" | "typed"): boolean {
  return asJsonObject(metadata)?.[flag] === true;
}

/** The metadata's `requested_by` when it is one this client knows (free-form otherwise). */
function requesterOf(metadata: unknown): Requester | undefined {
  const value = asJsonObject(metadata)?.requested_by;
  return REQUESTERS.find((name) => name === value);
}

/** Compact now's own prompt is `maintenance`; a command the person typed is also `typed`. */
function typedByPerson(metadata: unknown): boolean {
  return !metadataFlag(metadata, "maintenance") || metadataFlag(metadata, "typed");
}

/** What opened a turn: a typed command, a request's own prompt, or neither. */
function requestOf(entry: Entry, text: string): CompactionRequest | undefined {
  const { metadata } = entry.message;
  const requestedBy = requesterOf(metadata);
  const by = requestedBy === undefined ? {} : { requestedBy };
  if (typedByPerson(metadata)) return SLASH_COMMAND.test(text) ? { typed: text, ...by } : undefined;
  return by;
}

/** Compaction id → who asked for it, for compactions whose turn a request opened. */
export function compactionRequests(
  entries: readonly Entry[],
): ReadonlyMap<string, CompactionRequest> {
  const requests = new Map<string, CompactionRequest>();
  let opened: CompactionRequest | undefined;
  for (const entry of entries) {
    const text = userText(entry);
    if (text !== undefined) {
      opened = requestOf(entry, text);
      continue;
    }
    const compaction = compactionOf(entry);
    if (compaction && opened) requests.set(compaction.compaction_id, opened);
  }
  return requests;
}

export function compactionOrigin(
  trigger: CompactionTrigger | undefined,
  request: CompactionRequest | undefined,
): CompactionOrigin {
  // A typed command runs as a Compact now request, so what the person typed decides first.
  if (request?.typed) return { kind: "typed", command: request.typed, by: request.requestedBy };
  // Without a marker (no trigger known yet), the request's own prompt says it was requested.
  if (trigger === "requested" || (trigger === undefined && request?.requestedBy)) {
    return { kind: "requested", by: request?.requestedBy };
  }
  return { kind: "agent" };
}

const REQUESTED_WORDS: Record<Requester, string> = {
  web: "You pressed Compact now",
  cli: "Requested from the command line",
  tool: "An agent asked with its session tool",
  http: "Requested through the HTTP API",
};

const SENT_BY: Record<Requester, string> = {
  web: "You · via Compact now",
  cli: "Compact now · from the command line",
  tool: "Compact now · from an agent's session tool",
  http: "Compact now · through the HTTP API",
};

/**
 * Who a user message is from, when it is Compact now's own prompt (maintenance, not typed):
 * the caller the daemon recorded, so a CLI's or a tool's request is never "You". Undefined
 * for any other message (the person's own words).
 */
export function maintenanceSender(metadata: unknown): string | undefined {
  if (!metadataFlag(metadata, "maintenance") || metadataFlag(metadata, "typed")) return undefined;
  const by = requesterOf(metadata);
  return by === undefined ? "Compact now" : SENT_BY[by];
}

export function describeOrigin(origin: CompactionOrigin): string {
  switch (origin.kind) {
    case "requested":
      // A daemon that does not say who asked (CompozyOS, older ledgers): no one is named.
      return origin.by === undefined ? "Compaction was requested" : REQUESTED_WORDS[origin.by];
    case "typed":
      return origin.by === "cli"
        ? `${origin.command} typed from the command line`
        : `You typed ${origin.command}`;
    case "agent":
      return "The agent compacted on its own";
  }
}
