// The one reading of what a session is doing now (`sessionPhase`), from the cached session,
// the cached transcript and the stream's state. `fetch: false` for surfaces that must not
// start reads of their own (the sidebar's row for the open session: the page reads).
import { useQuery } from "@tanstack/react-query";
import type { Session } from "../contract/session";
import { compactionRunning } from "../lib/compaction-words";
import { type SessionPhase, sessionPhase } from "../lib/session-phase";
import { type SessionRef, sessionQueries } from "./session-queries";
import { useStreamStatus } from "./stream-status-store";
import { transcriptQueries } from "./transcript-queries";

export type SessionPhaseReading = {
  session: Session | undefined;
  phase: SessionPhase | undefined;
};

export function useSessionPhase(
  ref: SessionRef,
  options: { fetch?: boolean; fallback?: Session; unreachable?: boolean } = {},
): SessionPhaseReading {
  const enabled = options.fetch ?? true;
  const detail = useQuery({ ...sessionQueries.detail(ref), enabled });
  const compacting = useQuery({
    ...transcriptQueries.detail(ref),
    enabled,
    select: (data) => compactionRunning(data.entries),
  }).data;
  const stream = useStreamStatus(ref.sessionId);
  const session = detail.data ?? options.fallback;
  if (!session) return { session, phase: undefined };
  const offline = stream === "reconnecting" || options.unreachable === true;
  return { session, phase: sessionPhase(session, { offline, compacting: compacting === true }) };
}
