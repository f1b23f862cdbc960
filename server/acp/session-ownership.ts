// Which ACP session an agent owns, as the tap learns it: from the `session/new` answer (at
// its line) or the `session/load` request. A frame naming another session is applied to
// nothing. Updates that arrive while `session/new` is unanswered are held and decided, in
// order, at that answer's line; a `session/load` replay mutes new updates until answered.
import type { AgentEvents } from "./agent-process";

/** Updates held while `session/new` is unanswered, at most. */
const EARLY_LIMIT = 1000;

export type SessionOwnership = ReturnType<typeof createSessionOwnership>;

export function createSessionOwnership(events: AgentEvents) {
  let replaying = false;
  let ownedSession: string | undefined;
  /** The session id a pending `session/load` asked for. */
  let loading: string | undefined;
  // An agent may announce its new session (commands, usage) before the answer line that
  // names it.
  let early: { line: string; update: unknown; sessionId: string }[] = [];

  /** Why a frame naming `sessionId` is not this agent's, or undefined when it is. */
  function foreignSession(sessionId: unknown): string | undefined {
    if (typeof sessionId !== "string") return "frame without a string params.sessionId";
    if (ownedSession === undefined) {
      return `frame for session ${JSON.stringify(sessionId)} before the agent's session was established`;
    }
    if (sessionId !== ownedSession) {
      return `frame for session ${JSON.stringify(sessionId)}, not this agent's session ${JSON.stringify(ownedSession)}`;
    }
    return undefined;
  }

  function settleEarly() {
    const waiting = early;
    early = [];
    for (const frame of waiting) {
      const foreign = foreignSession(frame.sessionId);
      if (foreign === undefined) events.update(frame.update, frame.line);
      else events.invalidFrame(frame.line, foreign);
    }
  }

  return {
    foreignSession,
    settleEarly,

    /** Whether a `session/load` replay is under way. */
    replaying: () => replaying,

    /**
     * Holds an update for `target` until the `session/new` answer when no session is owned
     * yet and one is being created (`creating`); false when it is to be decided now.
     */
    holdEarly(line: string, update: unknown, target: unknown, creating: () => boolean): boolean {
      if (
        ownedSession !== undefined ||
        typeof target !== "string" ||
        early.length >= EARLY_LIMIT ||
        !creating()
      ) {
        return false;
      }
      early.push({ line, update, sessionId: target });
      return true;
    },

    /**
     * A `session/load` is about to be sent. `replaying` is cleared at the answer's line; an
     * agent that never answers stays muted until it is stopped, so a late replay is never
     * recorded as new. The loaded session is this agent's from its answer on.
     */
    beginLoad(acpSessionId: string): void {
      replaying = true;
      loading = acpSessionId;
    },

    /** The `session/load` answer's line: an error leaves the session unowned. */
    loadAnswered(failed: boolean): void {
      replaying = false;
      if (!failed && loading !== undefined) ownedSession = loading;
      settleEarly();
    },

    /** The `session/new` answer's line, with the session id it names (if any). */
    created(sessionId: unknown): void {
      if (typeof sessionId === "string") ownedSession = sessionId;
      settleEarly();
    },
  };
}
