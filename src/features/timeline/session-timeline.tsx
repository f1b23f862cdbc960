import type { SessionRef } from "../../api/session-queries";
import type { SessionStreamStatus } from "../../api/use-session-stream";

export function SessionTimeline({ session }: { session: SessionRef; stream: SessionStreamStatus }) {
  return <section className="flex-1 p-4">Timeline of {session.sessionId}</section>;
}
