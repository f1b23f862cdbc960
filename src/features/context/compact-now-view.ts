// Whether Compact now is offered, whether it can be pressed and why not, and what a refusal
// says. Pure, so every state is a table test.
import { isApiError } from "../../api/http";
import { type CompactionCommand, chooseCompactionCommand } from "../../contract/commands";
import { isTurnRunning, type Session } from "../../contract/session";

export type CompactButtonView =
  | { visible: false }
  | {
      visible: true;
      command: CompactionCommand;
      disabled: boolean;
      busy: boolean;
      reason: string | undefined;
    };

const NOT_ACTIVE: Record<Exclude<Session["state"], "active">, string> = {
  starting: "Session is starting",
  stopping: "Session is stopping",
  stopped: "Session is stopped",
};

export const COMPACT_COPY = {
  label: "Compact now",
  inFlight: "Requesting compaction…",
  turnRunning: "A turn is running",
  offline: "Waiting for the daemon to come back…",
  genericRefusal: "Couldn't request compaction. Try again.",
} as const;

export function deriveCompactButton(
  session: Pick<Session, "state" | "activity" | "available_commands">,
  inFlight: boolean,
  offline = false,
): CompactButtonView {
  const command = chooseCompactionCommand(session.available_commands);
  if (!command) return { visible: false };
  const reason = inFlight
    ? COMPACT_COPY.inFlight
    : offline
      ? COMPACT_COPY.offline
      : session.state !== "active"
        ? NOT_ACTIVE[session.state]
        : isTurnRunning(session)
          ? COMPACT_COPY.turnRunning
          : undefined;
  return { visible: true, command, disabled: reason !== undefined, busy: inFlight, reason };
}

/** The daemon's own words for the refusals a user can act on; a generic line otherwise. */
export function refusalMessage(error: unknown): string {
  if (isApiError(error, "session_busy") || isApiError(error, "compaction_unsupported")) {
    return error.message;
  }
  return COMPACT_COPY.genericRefusal;
}

/** A refusal, and the turn it is waiting on (the one running when it was seen, if any). */
export type Refusal = { message: string; turnId: string | undefined };

/**
 * The refusal as the session moves on: it clears when the turn it was waiting on ends. A
 * refusal seen while our copy of the session showed no turn (another client got there
 * first) follows the turn that then starts, and clears when that one ends.
 */
export function followRefusal(
  refusal: Refusal | null,
  currentTurnId: string | undefined,
): Refusal | null {
  if (!refusal || refusal.turnId === currentTurnId) return refusal;
  // The turn it waited on is over (whether or not another one has started since).
  if (refusal.turnId !== undefined || currentTurnId === undefined) return null;
  return { ...refusal, turnId: currentTurnId };
}
