// When the daemon starts a new agent session for an existing Tideline session, the agent
// holds none of the conversation: this keeps the bounded replay it is owed. A rebuild stores
// the replay with the agent session it is for (durably, ADR 0086); the next ordinary prompt
// to that agent session carries it and clears it; a Compact now turn neither carries nor
// clears it. A `session/load` keeps the same agent session, so a stored replay stays owed.
import {
  buildReplay,
  promptWithReplay,
  type Replay,
  type ReplayBudget,
  type ReplayReason,
  replayLogLine,
  replayMessagesOf,
  type StoredMessage,
} from "../domain/bounded-replay";
import type { Ledger } from "../domain/session-recorder-api";

const PAGE = 500;

export type ReplayKeeperDeps = {
  ledger: Ledger;
  budget: ReplayBudget;
  /** Whether the session's agent is offered `tideline__session_history` (tool policy). */
  historyToolOffered(sessionId: string): boolean;
  log(line: string): void;
};

export type ReplayKeeper = ReturnType<typeof createReplayKeeper>;

type LedgerReader = Ledger["reader"];

/**
 * The first ledger sequence of a turn that has just begun (its input row, nothing else
 * yet): its entries start there.
 */
function turnStart(reader: LedgerReader, sessionId: string, turnId: string): number | undefined {
  const rows = reader.events(sessionId, { turn_id: turnId, limit: 20 }).events;
  return rows.length === 0 ? undefined : Math.min(...rows.map((row) => row.sequence));
}

/** Every stored transcript message of a session, oldest first (those before `until`). */
function storedMessages(reader: LedgerReader, sessionId: string, until?: number): StoredMessage[] {
  const pages: StoredMessage[][] = [];
  let before = until;
  for (;;) {
    const page = reader.transcriptPage(sessionId, {
      limit: PAGE,
      ...(before === undefined ? {} : { beforeSequence: before }),
    });
    pages.unshift(page.entries.map((entry) => entry.message));
    if (!page.has_older || page.next_before_sequence === undefined) break;
    before = page.next_before_sequence;
  }
  return pages.flat();
}

function failure(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createReplayKeeper(deps: ReplayKeeperDeps) {
  const { reader, replays } = deps.ledger;

  /** A replay becomes owed to `acpSessionId`, replacing any older one. */
  function owe(sessionId: string, acpSessionId: string, reason: ReplayReason, replay: Replay) {
    replays.put({ sessionId, acpSessionId, reason, text: replay.text });
    deps.log(replayLogLine(sessionId, reason, replay));
  }

  function rebuild(sessionId: string, acpSessionId: string, requestTurn?: string) {
    // An owed replay was never delivered (delivery deletes it): only maintenance turns
    // ran since, so it still is what the agent lacks. It goes to the new agent session.
    const owed = replays.get(sessionId);
    if (owed !== undefined) {
      if (owed.acpSessionId !== acpSessionId) replays.put({ ...owed, acpSessionId });
      return;
    }
    const until = requestTurn === undefined ? undefined : turnStart(reader, sessionId, requestTurn);
    const own = replayMessagesOf(storedMessages(reader, sessionId, until));
    if (own.length === 0) return;
    const replay = buildReplay({
      messages: own,
      budget: deps.budget,
      reason: "restart",
      sourceSessionId: sessionId,
      historyToolOffered: deps.historyToolOffered(sessionId),
    });
    owe(sessionId, acpSessionId, "restart", replay);
  }

  return {
    owe,

    /** The replay of `sourceSessionId`'s stored messages, for continue and fork. */
    build(
      sourceSessionId: string,
      reason: ReplayReason,
      options: { sourceAgent?: string; historyToolOffered: boolean },
    ): Replay {
      return buildReplay({
        messages: replayMessagesOf(storedMessages(reader, sourceSessionId)),
        budget: deps.budget,
        reason,
        sourceSessionId,
        ...(options.sourceAgent === undefined ? {} : { sourceAgent: options.sourceAgent }),
        historyToolOffered: options.historyToolOffered,
      });
    },

    /**
     * `session/new` answered for an existing session. A replay still owed (a continue or
     * fork not prompted yet, a rebuild followed only by Compact now) goes to the new agent
     * session as it is; otherwise the session's own stored messages are replayed.
     * `requestTurn` is the turn of a prompt that resumed the session: it is the request.
     */
    agentSessionStarted(sessionId: string, acpSessionId: string, requestTurn?: string): void {
      try {
        rebuild(sessionId, acpSessionId, requestTurn);
      } catch (error) {
        // The agent still starts; it only lacks the conversation, which the log says.
        deps.log(`[${sessionId}] could not store the replay: ${failure(error)}`);
      }
    },

    /** The text an ordinary prompt sends: with the owed replay first, when there is one. */
    promptText(sessionId: string, acpSessionId: string, message: string): string {
      const owed = replays.get(sessionId);
      if (owed === undefined || owed.acpSessionId !== acpSessionId) return message;
      return promptWithReplay(owed.text, message);
    },

    /** The prompt that carried the replay was sent: the obligation ends, durably. */
    delivered(sessionId: string, acpSessionId: string): void {
      const owed = replays.get(sessionId);
      if (owed === undefined || owed.acpSessionId !== acpSessionId) return;
      try {
        replays.clear(sessionId);
      } catch (error) {
        // Kept: a replay sent twice costs context; one never sent loses the conversation.
        deps.log(
          `session.replay.consumption_persist_failed ${JSON.stringify({
            session_id: sessionId,
            error: failure(error),
          })}`,
        );
      }
    },
  };
}
