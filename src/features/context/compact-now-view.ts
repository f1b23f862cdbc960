// Whether Compact now is offered, whether it can be pressed and why not, and what a refusal
// says. Pure, so every state is a table test.
import { isApiError } from "../../api/http";
import { refusalText } from "../../api/refusal-words";
import { type CompactionCommand, chooseCompactionCommand } from "../../contract/commands";
import { isTurnRunning, type Session } from "../../contract/session";

/** Compact now is always shown where the daemon has the route; `command` is what it sends. */
export type CompactButtonView = {
  command: CompactionCommand | undefined;
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
  compacting: "A compaction is running",
  offline: "Waiting for the daemon to come back…",
  noCommand: "This agent has no compaction command (it offers neither /compact nor /compress)",
  genericRefusal: "Couldn't request compaction. Try again.",
} as const;

/**
 * Why the button cannot be pressed, most decisive first. A starting session may not have
 * advertised its commands yet, so "starting" outranks "no command"; an agent without one
 * can never compact on request, so that outranks a stopped session or a running turn.
 */
function blockedReason(
  session: Pick<Session, "state" | "activity">,
  command: CompactionCommand | undefined,
  inFlight: boolean,
  offline: boolean,
  compacting: boolean,
): string | undefined {
  if (inFlight) return COMPACT_COPY.inFlight;
  if (offline) return COMPACT_COPY.offline;
  if (session.state === "starting") return NOT_ACTIVE.starting;
  if (!command) return COMPACT_COPY.noCommand;
  if (session.state !== "active") return NOT_ACTIVE[session.state];
  if (compacting) return COMPACT_COPY.compacting;
  if (isTurnRunning(session)) return COMPACT_COPY.turnRunning;
  return undefined;
}

export function deriveCompactButton(
  session: Pick<Session, "state" | "activity" | "available_commands">,
  inFlight: boolean,
  offline = false,
  /** The transcript's newest compaction is still running (see `sessionPhase`). */
  compacting = false,
): CompactButtonView {
  const command = chooseCompactionCommand(session.available_commands);
  const reason = blockedReason(session, command, inFlight, offline, compacting);
  return { command, disabled: reason !== undefined, busy: inFlight, reason };
}

/**
 * A refusal in plain words (the daemon's text only for a code nobody mapped); a failure
 * without a code (no envelope) gets a generic line.
 */
export function refusalMessage(error: unknown): string {
  if (isApiError(error) && error.code !== undefined) return refusalText(error);
  return COMPACT_COPY.genericRefusal;
}
