// Whether Stop session can be pressed, and what it says before it ends work in progress.
// It ends the agent's process: a running turn is cut short and a waiting approval is
// withdrawn, so in those cases it asks first (next to it sits the turn's own Stop, which
// only cancels the turn). Offline it waits: the daemon could not be told.
import type { SessionPhase } from "../../lib/session-phase";

export const STOP_COPY = {
  label: "Stop session",
  offline: "Waiting for the daemon to come back…",
  title: "Stop this session?",
  confirm: "Stop session",
  keep: "Keep it running",
  consequence:
    "Stopping ends the agent's process. The history stays, and sending a message later resumes the session.",
} as const;

/** What is open that stopping would end, in words; undefined when nothing is (no question). */
export function stopWouldInterrupt(phase: SessionPhase, approvals: number): string | undefined {
  const parts: string[] = [];
  if (phase === "turn") parts.push("the running turn is cancelled");
  if (phase === "compacting") parts.push("the compaction in progress is cancelled");
  if (approvals === 1) parts.push("the approval waiting for you is withdrawn");
  if (approvals > 1) parts.push(`the ${approvals} approvals waiting for you are withdrawn`);
  if (parts.length === 0) return undefined;
  const sentence = parts.join(", and ");
  return `If you stop now, ${sentence}.`;
}

/** Stop session is shown while the session runs (or is starting), or while offline. */
export function showsStopSession(phase: SessionPhase | undefined, state: string | undefined) {
  return state === "active" || state === "starting" || (phase === "offline" && state !== "stopped");
}
