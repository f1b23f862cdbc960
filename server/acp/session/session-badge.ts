// CompozyOS's always-present `badge` and `activity` figures, from what this daemon knows.
// The badge follows CompozyOS's `CanonicalBadge` (internal/session/badge.go) for the inputs
// Tideline has: state, the stop classification, pending approvals and a running turn. It has
// no health monitor and no "seen" marker, so `hung`, `unhealthy` and `done` never occur.
import type { DaemonSession, SessionState } from "../../../src/contract/session";

export type BadgeInputs = {
  state: SessionState;
  stopReason: DaemonSession["stop_reason"];
  pendingApprovals: number;
  turnRunning: boolean;
};

/** Stop reasons CompozyOS counts as a failure (a kind other than "canceled"). */
const FAILED: ReadonlySet<string> = new Set(["error", "agent_crashed", "timeout"]);

export function badgeOf(input: BadgeInputs): string {
  const stopped = input.state === "stopped";
  if (stopped && input.stopReason !== undefined && FAILED.has(input.stopReason)) return "failed";
  // An approval waiting for a person is CompozyOS's PendingAuth (a pending permission).
  if (input.pendingApprovals > 0) return "waiting-for-auth";
  if (stopped) return "stopped";
  if (input.state === "starting" || input.state === "stopping" || input.turnRunning) {
    return "running";
  }
  return "idle";
}

/**
 * The running turn's activity. Idle time runs from the session's newest ledger row
 * (`updated_at`, ADR 0040), or from the turn's start when nothing was recorded since.
 * Iterations are not tracked (an ACP agent does not report them): both are 0, which
 * CompozyOS's own clients read as "no iteration figure".
 */
export function activityOf(
  turn: { id: string; startedAt: string; kind: "prompt" | "compact" },
  lastRowAt: string,
  now: Date,
): NonNullable<DaemonSession["activity"]> {
  const started = Date.parse(turn.startedAt);
  const elapsed = Math.max(0, now.getTime() - started);
  const lastActivity = Math.max(started, Date.parse(lastRowAt));
  const idle = Math.max(0, now.getTime() - lastActivity);
  return {
    turn_id: turn.id,
    // A Compact now turn is the daemon's own maintenance turn, not the user's input.
    turn_source: turn.kind === "compact" ? "synthetic" : "user",
    turn_started_at: turn.startedAt,
    last_activity_at: new Date(lastActivity).toISOString(),
    elapsed_ms: elapsed,
    elapsed_seconds: Math.floor(elapsed / 1000),
    idle_seconds: Math.floor(idle / 1000),
    iteration_current: 0,
    iteration_max: 0,
  };
}
