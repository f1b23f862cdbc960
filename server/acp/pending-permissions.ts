// The permission requests waiting for an answer, in memory, and the recent answered ones
// (to tell "already answered" from "unknown"). Resolving one records
// `permission.resolved`, answers the agent and reports the session's pending set changed;
// every request goes through `resolve` exactly once.
import type { RequestPermissionResponse } from "@agentclientprotocol/sdk/unstable";
import type { PendingInteraction } from "../../src/contract/agent-session";
import type {
  LedgerRow,
  PermissionOptionRecord,
  PermissionResolutionRecord,
  SessionRecorder,
} from "../domain/session-recorder-api";

export type PendingPermission = {
  requestId: string;
  sessionId: string;
  turnId: string | null;
  toolCallId: string;
  title: string;
  options: PermissionOptionRecord[];
  createdAt: string;
  answer: (response: RequestPermissionResponse) => void;
};

export type Resolution = Omit<
  PermissionResolutionRecord,
  "request_id" | "tool_call_id" | "outcome"
>;

export type PendingPermissions = ReturnType<typeof createPendingPermissions>;

const RESOLVED_MEMORY = 1000;

function describeResolution(resolution: Resolution): string {
  const detail = resolution.decision
    ? `: ${resolution.decision}`
    : resolution.reason
      ? `: ${resolution.reason}`
      : "";
  return `${resolution.status} by ${resolution.resolved_by}${detail}`;
}

export function createPendingPermissions(deps: {
  recorder: SessionRecorder;
  /** Called after every change of a session's pending set. */
  changed: (sessionId: string) => void;
  record: (sessionId: string, what: string, write: () => LedgerRow[]) => LedgerRow[];
}) {
  const { recorder, changed, record } = deps;
  const pending = new Map<string, PendingPermission>();
  /** Answered requests (newest RESOLVED_MEMORY). */
  const answered = new Map<string, { sessionId: string; how: string }>();

  function resolve(
    entry: PendingPermission,
    response: RequestPermissionResponse,
    resolution: Resolution,
  ) {
    pending.delete(entry.requestId);
    answered.set(entry.requestId, {
      sessionId: entry.sessionId,
      how: describeResolution(resolution),
    });
    if (answered.size > RESOLVED_MEMORY) {
      const oldest = answered.keys().next().value;
      if (oldest !== undefined) answered.delete(oldest);
    }
    const outcome = response.outcome;
    record(entry.sessionId, "permission.resolved", () =>
      recorder.recordPermissionResolved(entry.sessionId, entry.turnId, {
        request_id: entry.requestId,
        tool_call_id: entry.toolCallId,
        outcome: outcome.outcome,
        ...resolution,
      }),
    );
    entry.answer(response);
    changed(entry.sessionId);
  }

  function ofSession(sessionId: string): PendingPermission[] {
    return [...pending.values()].filter((entry) => entry.sessionId === sessionId);
  }

  return {
    resolve,
    ofSession,

    add(entry: PendingPermission): void {
      pending.set(entry.requestId, entry);
    },

    get: (requestId: string) => pending.get(requestId),

    /** How an answered request of `sessionId` was answered; undefined if not remembered. */
    answeredHow(requestId: string, sessionId: string): string | undefined {
      const done = answered.get(requestId);
      return done !== undefined && done.sessionId === sessionId ? done.how : undefined;
    },

    /** Answers every request of `sessionId` `cancelled`, for the daemon's `reason`. */
    closeSession(sessionId: string, status: "canceled" | "orphaned", reason: string): void {
      for (const entry of ofSession(sessionId)) {
        resolve(
          entry,
          { outcome: { outcome: "cancelled" } },
          { status, resolved_by: "daemon", reason },
        );
      }
    },
  };
}

/** CompozyOS's `pending_interactions` entry for one waiting request. */
export function pendingInteractionOf(entry: PendingPermission): PendingInteraction {
  const decisions = entry.options
    .map((option) => option.decision)
    .filter((decision): decision is string => decision !== undefined);
  return {
    interaction_id: entry.requestId,
    kind: "permission",
    provider_request_id: entry.requestId,
    ...(entry.turnId === null ? {} : { turn_id: entry.turnId }),
    title: entry.title,
    choices: entry.options.map((option) => option.name),
    decisions,
    status: "pending",
    created_at: entry.createdAt,
  };
}
