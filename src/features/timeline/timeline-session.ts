import { createContext, useContext } from "react";
import type { SessionRef } from "../../api/session-queries";

/** The session a timeline shows, for rows that act on it (answering an approval). */
export const TimelineSession = createContext<SessionRef | undefined>(undefined);

export function useTimelineSession(): SessionRef | undefined {
  return useContext(TimelineSession);
}
