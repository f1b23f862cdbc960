// The words of each notification: a title naming the event and the session, and a line of
// detail. The same words go to the desktop notification and to the page's live region.
import type { SessionEvent } from "../../lib/session-events";

export type CompactionOutcome = "completed" | "failed" | "cancelled" | undefined;

export function notificationWords(
  event: SessionEvent,
  outcome?: CompactionOutcome,
): { title: string; body: string } {
  const name = event.sessionName;
  switch (event.kind) {
    case "approval":
      return {
        title: `Approval waiting · ${name}`,
        body: event.detail
          ? `The agent asks: ${event.detail}`
          : "The agent asks for your permission.",
      };
    case "turn":
      return { title: `Turn finished · ${name}`, body: "The agent has answered." };
    case "compaction":
      return outcome === "failed"
        ? { title: `Compaction failed · ${name}`, body: "The context was not compacted." }
        : outcome === "cancelled"
          ? { title: `Compaction cancelled · ${name}`, body: "The context was not compacted." }
          : { title: `Compaction finished · ${name}`, body: "The context was compacted." };
    case "crash":
      return {
        title: `Agent crashed · ${name}`,
        body: event.detail
          ? `The agent stopped: ${event.detail}`
          : "The agent stopped unexpectedly.",
      };
  }
}
