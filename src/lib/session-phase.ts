// What a session is doing now, in one place. The header's badge, the sidebar, Compact now,
// the composer and Stop session all read this, so none of them can say "ready" while
// another says "Compacting context…". The inputs are the session (state and activity, from
// the daemon), whether the daemon is reachable (the stream), and whether the transcript's
// newest compaction is still running (the transcript moves frame by frame, the session
// and usage are re-read after it). Offline outranks everything: the last known state is
// not claimed as current while nobody can tell.
import { isTurnRunning, type Session } from "../contract/session";

export type SessionPhase =
  | "offline"
  | "starting"
  | "stopping"
  | "stopped"
  | "compacting"
  | "turn"
  | "ready";

export type LiveSignals = {
  /** The daemon cannot be reached (the stream is reconnecting, or the list failed to load). */
  offline: boolean;
  /** The transcript's newest compaction has not ended. */
  compacting: boolean;
};

export const NO_SIGNALS: LiveSignals = { offline: false, compacting: false };

export function sessionPhase(
  session: Pick<Session, "state" | "activity">,
  live: LiveSignals = NO_SIGNALS,
): SessionPhase {
  if (live.offline) return "offline";
  if (session.state !== "active") return session.state;
  if (live.compacting) return "compacting";
  return isTurnRunning(session) ? "turn" : "ready";
}

type BadgeTone = "good" | "busy" | "warn" | "muted";
export type PhaseStatus = { text: string; tone: BadgeTone };

/** A phase in one or two words, the same wherever a session's state shows. */
export const PHASE_STATUS: Record<SessionPhase, PhaseStatus> = {
  offline: { text: "Reconnecting…", tone: "warn" },
  starting: { text: "starting", tone: "busy" },
  stopping: { text: "stopping", tone: "warn" },
  stopped: { text: "stopped", tone: "muted" },
  compacting: { text: "compacting…", tone: "busy" },
  turn: { text: "working…", tone: "busy" },
  ready: { text: "ready", tone: "good" },
};
