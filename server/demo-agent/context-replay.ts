// How the demo agent recognises a context replay at the head of a prompt (the daemon's
// bounded replay, server/domain/bounded-replay.ts): it takes the conversation from it, keeps
// the request that follows as the prompt, and says what it picked up, so a person (and a
// test) can see that a restarted, continued or forked session arrived with its memory.
import { z } from "../../src/contract/zod";

const OPEN = "<tideline_context_replay>\n";
const CLOSE = "\n</tideline_context_replay>";
const SEPARATOR = "\n\nThe new message from the user:\n\n";

const ReplayedMessage = z.object({
  role: z.enum(["user", "assistant", "system"]),
  content: z.string(),
});
type ReplayedMessage = z.infer<typeof ReplayedMessage>;

export type ReceivedReplay = {
  messages: ReplayedMessage[];
  /** From the daemon's omission line ("[N earlier messages omitted …]"); 0 when none. */
  omitted: number;
  /** The replay text: everything before the separator. */
  text: string;
  /** Its UTF-8 bytes. */
  bytes: number;
  /** The first user message carried (the pinned one when messages were omitted). */
  firstRequest: string | null;
};

export type ReadPrompt = { request: string; replay: ReceivedReplay | null };

const OMISSION = /^\[(\d+) earlier messages? omitted\b/;

/** A prompt split into its replay (when it starts with one that parses) and its request. */
export function readContextReplay(text: string): ReadPrompt {
  const open = text.indexOf(OPEN);
  const close = text.indexOf(CLOSE, open);
  const separator = close === -1 ? -1 : text.indexOf(SEPARATOR, close);
  if (open === -1 || separator === -1 || close + CLOSE.length !== separator) {
    return { request: text, replay: null };
  }
  let messages: ReplayedMessage[];
  try {
    messages = z.array(ReplayedMessage).parse(JSON.parse(text.slice(open + OPEN.length, close)));
  } catch {
    return { request: text, replay: null };
  }
  let omitted = 0;
  const conversation: ReplayedMessage[] = [];
  for (const message of messages) {
    const line = message.role === "system" ? OMISSION.exec(message.content) : null;
    if (line?.[1] !== undefined) omitted += Number(line[1]);
    else conversation.push(message);
  }
  return {
    request: text.slice(separator + SEPARATOR.length),
    replay: {
      messages: conversation,
      omitted,
      text: text.slice(0, separator),
      bytes: Buffer.byteLength(text.slice(0, separator), "utf8"),
      firstRequest: conversation.find((message) => message.role === "user")?.content ?? null,
    },
  };
}

/** The line the demo agent opens its reply with after a replay. */
export function replayAcknowledgement(replay: ReceivedReplay): string {
  const count = replay.messages.length;
  const omitted =
    replay.omitted > 0
      ? `, ${replay.omitted} earlier one${replay.omitted === 1 ? "" : "s"} omitted`
      : "";
  return `*Picked up from a context replay: ${count} message${count === 1 ? "" : "s"}${omitted} (${replay.bytes} bytes).*`;
}
