// Whether the composer can send now, and what its hint line says. Only an `active` session
// takes a prompt: sending while it starts or stops would only earn a "not active" refusal
// that outlives the reason for it. The draft stays editable either way.
import type { Session } from "../../contract/session";

export const COMPOSER_HINT = "Ctrl/⌘ + Enter to send";

const NOT_ACTIVE: Record<Exclude<Session["state"], "active">, string> = {
  starting: "Session is starting",
  stopping: "Session is stopping",
  stopped: "Session is stopped",
};

/** Why Send is unavailable for this session, or undefined when it can send. */
export function sendBlockedReason(session: Pick<Session, "state"> | undefined): string | undefined {
  if (!session || session.state === "active") return undefined;
  return NOT_ACTIVE[session.state];
}
