// What happened to each session between two readings of the session list, as a person would
// want to be told (ADR 0241): an approval is waiting, a turn ended (a Compact now turn is a
// compaction's end), the agent crashed. Pure: the first reading only sets the baseline, so
// opening the page never announces what was already there.
import type { Session } from "../contract/session";

type SessionEventKind = "approval" | "turn" | "compaction" | "crash";

export type SessionEvent = {
  kind: SessionEventKind;
  sessionId: string;
  workspaceId: string | undefined;
  sessionName: string;
  /** For an approval: what it asks; for a crash: the daemon's detail. */
  detail?: string | undefined;
  /** For a turn or a compaction: the turn that ended. */
  turnId?: string | undefined;
};

/** What the detector keeps of a session between readings. */
export type SessionMark = {
  turnId: string | undefined;
  turnSource: string | undefined;
  approvals: ReadonlySet<string>;
  stopped: boolean;
};

const CRASHES: ReadonlySet<string> = new Set(["agent_crashed", "error"]);

function markOf(session: Session): SessionMark {
  return {
    turnId: session.activity?.turn_id || undefined,
    turnSource: session.activity?.turn_source,
    approvals: new Set(
      (session.pending_interactions ?? [])
        .filter((interaction) => interaction.status === "pending")
        .map((interaction) => interaction.interaction_id),
    ),
    stopped: session.state === "stopped",
  };
}

/** The events between `previous` (undefined: the first reading) and `sessions`. */
export function sessionEvents(
  previous: ReadonlyMap<string, SessionMark> | undefined,
  sessions: readonly Session[],
): { events: SessionEvent[]; marks: Map<string, SessionMark> } {
  const marks = new Map<string, SessionMark>();
  const events: SessionEvent[] = [];
  for (const session of sessions) {
    const mark = markOf(session);
    marks.set(session.id, mark);
    const before = previous?.get(session.id);
    // A session first seen now (the first reading, or one just created) has no history.
    if (before === undefined) continue;
    const about = {
      sessionId: session.id,
      workspaceId: session.workspace_id,
      sessionName: session.name?.trim() || "Untitled session",
    };
    for (const interaction of session.pending_interactions ?? []) {
      const id = interaction.interaction_id;
      if (interaction.status === "pending" && !before.approvals.has(id)) {
        events.push({ kind: "approval", ...about, detail: interaction.title });
      }
    }
    if (before.turnId !== undefined && mark.turnId !== before.turnId) {
      const kind = before.turnSource === "synthetic" ? "compaction" : "turn";
      events.push({ kind, ...about, turnId: before.turnId });
    }
    if (!before.stopped && mark.stopped && CRASHES.has(session.stop_reason ?? "")) {
      events.push({ kind: "crash", ...about, detail: session.stop_detail });
    }
  }
  return { events, marks };
}
