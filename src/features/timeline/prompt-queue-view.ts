// What the prompt queue above the composer says (ADR 0220): when its messages go, and why
// "Send now" waits. Pure, so the words are tested without a daemon.
import type { Session } from "../../contract/session";

export const QUEUE_COPY = {
  heading: (count: number) => (count === 1 ? "1 queued message" : `${count} queued messages`),
  whileTurn:
    "They go in order when the turn ends. Send now stops the turn and sends that one first.",
  whileStopped:
    "The session is stopped: they go in order once it resumes (sending a message resumes it).",
  idle: "They go in order as the agent takes them.",
  sendNowWaits: "Send now replaces a running turn; none is running.",
  emptyEdit: "A queued message can't be empty.",
} as const;

/** When the queue's messages will go, in words. */
export function queueTiming(
  session: Pick<Session, "state"> | undefined,
  turnId: string | undefined,
) {
  if (turnId !== undefined) return QUEUE_COPY.whileTurn;
  if (session?.state === "stopped") return QUEUE_COPY.whileStopped;
  return QUEUE_COPY.idle;
}
