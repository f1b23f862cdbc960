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

export function createReplayKeeper(deps: ReplayKeeperDeps) {
  const { reader, replays } = deps.ledger;

  /** Every stored transcript message of a session, oldest first. */
  function storedMessages(sessionId: string): StoredMessage[] {
    const pages: StoredMessage[][] = [];
    let before: number | undefined;
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

  /** A replay becomes owed to `acpSessionId`, replacing any older one. */
  function owe(sessionId: string, acpSessionId: string, reason: ReplayReason, replay: Replay) {
    replays.put({ sessionId, acpSessionId, reason, text: replay.text });
    deps.log(replayLogLine(sessionId, reason, replay));
  }

  function rebuild(sessionId: string, acpSessionId: string) {
    const owed = replays.get(sessionId);
    const own = replayMessagesOf(storedMessages(sessionId));
    if (own.length === 0) {
      if (owed !== undefined && owed.acpSessionId !== acpSessionId) {
        replays.put({ ...owed, acpSessionId });
      }
      return;
    }
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
        messages: replayMessagesOf(storedMessages(sourceSessionId)),
        budget: deps.budget,
        reason,
        sourceSessionId,
        ...(options.sourceAgent === undefined ? {} : { sourceAgent: options.sourceAgent }),
        historyToolOffered: options.historyToolOffered,
      });
    },

    /**
     * `session/new` answered for an existing session. A session with stored messages of its
     * own is rebuilt from them; one without (a fresh continue or fork, not prompted yet)
     * keeps the replay it already owes, now for the new agent session.
     */
    agentSessionStarted(sessionId: string, acpSessionId: string): void {
      try {
        rebuild(sessionId, acpSessionId);
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
