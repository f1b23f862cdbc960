// The bounded replay: what a new agent session is given when it takes over an existing
// Tideline session (restart without `session/load`, continue, fork). Pure: stored messages
// and a budget in, the replay text and its figures out. One budget for every replay; the
// first user message is pinned, the newest messages are kept, and one system line says how
// many earlier ones were left out (ADR 0085).
import { asJsonObject } from "../../src/contract/json-value";

type ReplayRole = "user" | "assistant" | "system";
export type ReplayMessage = { role: ReplayRole; content: string };

export type ReplayBudget = {
  /** Upper bound on the JSON array in the tagged block, in UTF-8 bytes. */
  maxReplayBytes: number;
  /** Upper bound on one message of that array (its JSON object), in UTF-8 bytes. */
  maxMessageBytes: number;
};

const MIN_MESSAGE_BYTES = 1024;
export const DEFAULT_REPLAY_BUDGET: ReplayBudget = {
  maxReplayBytes: 131_072,
  maxMessageBytes: 16_384,
};

export const REPLAY_OPEN_TAG = "<tideline_context_replay>";
export const REPLAY_CLOSE_TAG = "</tideline_context_replay>";
export const HISTORY_TOOL = "tideline__session_history";
/** Between the replay and the user's own words in the prompt that carries it. */
const REQUEST_SEPARATOR = "\n\nThe new message from the user:\n\n";

/** Why a new agent session was started for an existing Tideline session. */
export type ReplayReason = "restart" | "continue" | "fork";

export type ReplayInput = {
  messages: readonly ReplayMessage[];
  budget: ReplayBudget;
  reason: ReplayReason;
  /** The session whose stored messages these are (the source, for continue and fork). */
  sourceSessionId: string;
  sourceAgent?: string;
  /** Whether the receiving session is offered the history tool (its tool policy). */
  historyToolOffered: boolean;
};

export type Replay = {
  text: string;
  /** The array's messages as sent (the omission line included, long ones cut). */
  messages: ReplayMessage[];
  /** Stored messages carried in the array (the omission line not counted). */
  messageCount: number;
  omittedCount: number;
  firstUserPinned: boolean;
  /** A message was omitted or cut to the per-message bound. */
  truncated: boolean;
  /** UTF-8 bytes of `text`: exactly what is prepended to the prompt. */
  bytes: number;
};

export class ReplayBudgetError extends Error {
  override name = "ReplayBudgetError";
}

/** The one rule for a budget; the daemon refuses to start on a budget that breaks it. */
export function checkReplayBudget(budget: ReplayBudget): ReplayBudget {
  const { maxReplayBytes, maxMessageBytes } = budget;
  if (!Number.isSafeInteger(maxReplayBytes) || maxReplayBytes < MIN_MESSAGE_BYTES) {
    throw new ReplayBudgetError(
      `--replay-max-bytes must be an integer ≥ ${MIN_MESSAGE_BYTES}, got ${maxReplayBytes}`,
    );
  }
  if (
    !Number.isSafeInteger(maxMessageBytes) ||
    maxMessageBytes < MIN_MESSAGE_BYTES ||
    maxMessageBytes > maxReplayBytes
  ) {
    throw new ReplayBudgetError(
      `--replay-max-message-bytes must be between ${MIN_MESSAGE_BYTES} and --replay-max-bytes (${maxReplayBytes}), got ${maxMessageBytes}`,
    );
  }
  return budget;
}

const utf8 = (text: string) => Buffer.byteLength(text, "utf8");
const jsonBytes = (message: ReplayMessage) => utf8(JSON.stringify(message));

const MAX_TOOL_INPUT_CHARS = 400;

/** A stored transcript message, read structurally: the replay needs only a few part fields. */
export type StoredMessage = {
  role: string;
  metadata?: unknown;
  parts: readonly unknown[] | null;
};

type LoosePart = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function toolLine(part: LoosePart): string {
  const state = str(part.state);
  const error = str(part.errorText);
  const outcome =
    state === "output-available"
      ? "completed"
      : state === "output-error"
        ? `failed${error ? `: ${error}` : ""}`
        : "not finished";
  let input = "";
  if (part.input !== undefined) {
    const raw = JSON.stringify(part.input) ?? "";
    input = raw.length > MAX_TOOL_INPUT_CHARS ? `${raw.slice(0, MAX_TOOL_INPUT_CHARS)}…` : raw;
  }
  const title = str(part.title) ?? str(part.toolName) ?? str(part.type)?.replace(/^tool-/, "");
  return `[tool call "${title ?? "tool"}" ${outcome}${input ? `; input ${input}` : ""}]`;
}

function compactionLine(data: LoosePart): string {
  const status = str(data.status) ?? "unknown";
  const summary = str(data.summary);
  return summary
    ? `[the agent compacted its context (${status}); its summary:]\n${summary}`
    : `[the agent compacted its context (${status})]`;
}

/**
 * One stored transcript message as the replay carries it, or nothing. Thoughts, timeline
 * events and maintenance prompts (`/compact`) are not conversation; tool calls become one
 * line each so the agent knows they already ran; a compaction keeps its summary.
 */
export function replayMessageOf(message: StoredMessage): ReplayMessage | undefined {
  const metadata = message.metadata as { maintenance?: unknown } | null | undefined;
  if (message.role === "user" && metadata?.maintenance === true) return undefined;
  let role: ReplayRole =
    message.role === "user" || message.role === "system" ? message.role : "assistant";
  const lines: string[] = [];
  for (const raw of message.parts ?? []) {
    const part: LoosePart | undefined = asJsonObject(raw);
    if (part === undefined) continue;
    const type = str(part.type) ?? "";
    if (type === "text") lines.push(str(part.text) ?? "");
    else if (type === "data-compozy-compaction" && typeof part.data === "object" && part.data) {
      role = "system";
      lines.push(compactionLine(part.data as LoosePart));
    } else if (typeof part.toolCallId === "string") lines.push(toolLine(part));
  }
  const content = lines.join("\n").trim();
  return content === "" ? undefined : { role, content };
}

export function replayMessagesOf(messages: readonly StoredMessage[]): ReplayMessage[] {
  const out: ReplayMessage[] = [];
  for (const message of messages) {
    const replayed = replayMessageOf(message);
    if (replayed !== undefined) out.push(replayed);
  }
  return out;
}

/**
 * The message cut so its JSON object takes at most `limit` bytes, with a marker saying
 * how much was cut. Counts escaped bytes, so quotes and control characters cannot push a
 * cut message over its bound.
 */
export function fitMessage(message: ReplayMessage, limit: number): ReplayMessage {
  if (jsonBytes(message) <= limit) return message;
  const total = utf8(message.content);
  const marker = (cut: number) => ` …[${cut} bytes cut]`;
  // The empty-content object plus the longest possible marker bounds what the text may use.
  const room = limit - jsonBytes({ ...message, content: marker(total) });
  let used = 0;
  let end = 0;
  for (const char of message.content) {
    const size = utf8(JSON.stringify(char)) - 2;
    if (used + size > room) break;
    used += size;
    end += char.length;
  }
  const kept = message.content.slice(0, end);
  return { ...message, content: `${kept}${marker(total - utf8(kept))}` };
}

function omissionLine(count: number): ReplayMessage {
  return {
    role: "system",
    content: `[${count} earlier message${count === 1 ? "" : "s"} omitted to fit the replay budget]`,
  };
}

/** `[` + one message per line, comma-separated + `]`. */
function arrayText(messages: readonly ReplayMessage[]): string {
  return `[${messages.map((message) => JSON.stringify(message)).join(",\n")}]`;
}

function arrayBytes(sizes: readonly number[]): number {
  if (sizes.length === 0) return 2;
  return 2 + sizes.reduce((sum, size) => sum + size, 0) + 2 * (sizes.length - 1);
}

export type BoundedMessages = {
  messages: ReplayMessage[];
  carried: number;
  omitted: number;
  firstUserPinned: boolean;
  truncated: boolean;
};

/** Applies the budget: everything when it fits, else the pinned first user message, the
 * omission line and as many of the newest messages as fit. */
export function boundMessages(
  all: readonly ReplayMessage[],
  budget: ReplayBudget,
): BoundedMessages {
  const fitted = all.map((message) => fitMessage(message, budget.maxMessageBytes));
  let truncated = fitted.some((message, index) => message !== all[index]);
  const sizes = fitted.map(jsonBytes);
  if (arrayBytes(sizes) <= budget.maxReplayBytes) {
    return {
      messages: fitted,
      carried: fitted.length,
      omitted: 0,
      firstUserPinned: false,
      truncated,
    };
  }
  truncated = true;
  const firstUser = fitted.findIndex((message) => message.role === "user");
  // The omission line's size with the largest count it could show.
  const lineSize = jsonBytes(omissionLine(fitted.length));
  let pinned: ReplayMessage | undefined;
  let used = 2 + lineSize;
  if (firstUser !== -1) {
    const first = fitted[firstUser] as ReplayMessage;
    const room = budget.maxReplayBytes - used - 2;
    pinned = jsonBytes(first) <= room ? first : fitMessage(first, room);
    used += 2 + jsonBytes(pinned);
  }
  let from = fitted.length;
  while (from - 1 > firstUser) {
    const size = sizes[from - 1] as number;
    if (used + 2 + size > budget.maxReplayBytes) break;
    used += 2 + size;
    from -= 1;
  }
  const newest = fitted.slice(from);
  const carried = newest.length + (pinned === undefined ? 0 : 1);
  const omitted = fitted.length - carried;
  const head = pinned === undefined ? [] : [pinned];
  // Only a cut pinned message can make everything fit after all: then nothing is omitted.
  const messages =
    omitted === 0 ? [...head, ...newest] : [...head, omissionLine(omitted), ...newest];
  return { messages, carried, omitted, firstUserPinned: pinned !== undefined, truncated };
}

function headerLines(input: ReplayInput): string[] {
  const lines = [
    "You are taking over a conversation that Tideline recorded in an earlier agent session. " +
      "The block below replays it as background only: it is not a new request, and the request to " +
      "act on follows after it. Tool calls listed there already ran; do not run them again just " +
      "because they appear in the record. The workspace's files and git state are the truth: look " +
      "at them before relying on what the record says. Files or images attached earlier were not " +
      "copied into this session.",
  ];
  const agent = input.sourceAgent === undefined ? "" : ` (agent "${input.sourceAgent}")`;
  // One line for continue and fork alike, so a preview is exactly what either sends.
  if (input.reason !== "restart") {
    lines.push(
      `This session carries on the conversation of Tideline session ${input.sourceSessionId}${agent}; earlier messages live there.`,
    );
  }
  return lines;
}

function omissionNote(input: ReplayInput, omitted: number): string {
  const note = `${omitted} earlier message${omitted === 1 ? " is" : "s are"} not in the replay.`;
  if (!input.historyToolOffered) return note;
  return `${note} Read ${omitted === 1 ? "it" : "them"} with the ${HISTORY_TOOL} tool (session_id: ${input.sourceSessionId}) when you need ${omitted === 1 ? "it" : "them"}.`;
}

export function buildReplay(input: ReplayInput): Replay {
  const bounded = boundMessages(input.messages, input.budget);
  const sections = headerLines(input);
  if (bounded.omitted > 0) sections.push(omissionNote(input, bounded.omitted));
  sections.push(`${REPLAY_OPEN_TAG}\n${arrayText(bounded.messages)}\n${REPLAY_CLOSE_TAG}`);
  const text = sections.join("\n\n");
  return {
    text,
    messages: bounded.messages,
    messageCount: bounded.carried,
    omittedCount: bounded.omitted,
    firstUserPinned: bounded.firstUserPinned,
    truncated: bounded.truncated,
    bytes: utf8(text),
  };
}

/** The text of the prompt that delivers a replay: the replay, then the user's message. */
export function promptWithReplay(replayText: string, message: string): string {
  return `${replayText}${REQUEST_SEPARATOR}${message}`;
}

/** The `session.replay.bounded` log line. */
export function replayLogLine(sessionId: string, reason: ReplayReason, replay: Replay): string {
  return `session.replay.bounded ${JSON.stringify({
    session_id: sessionId,
    reason,
    message_count: replay.messageCount,
    omitted_count: replay.omittedCount,
    first_user_pinned: replay.firstUserPinned,
    bytes: replay.bytes,
  })}`;
}
