// Per-turn usage is the biggest read of a session (every turn, ~570 KB at 3,333 turns) and
// feeds only the rail, the turn markers and the meter's wording. It waits until the
// transcript's first page is in (or failed), so on opening a long session the daemon and
// the browser's six connections serve the timeline first (ADR 0119), and until the page's
// first rows are painted, so its parse does not delay them (ADR 0214).
import { useQuery } from "@tanstack/react-query";
import { useFirstScreenPainted } from "../lib/first-screen";
import type { SessionRef } from "./session-queries";
import { transcriptQueries } from "./transcript-queries";
import { type UsageTurnsView, usageQueries } from "./usage-queries";

const asIs = <T>(data: UsageTurnsView | null) => data as T;

export function useUsageTurns<T = UsageTurnsView | null>(
  session: SessionRef,
  select: (data: UsageTurnsView | null) => T = asIs,
) {
  const transcript = useQuery(transcriptQueries.detail(session));
  const painted = useFirstScreenPainted();
  const timelineFirst = painted && (transcript.data !== undefined || transcript.isError);
  return useQuery({
    ...usageQueries.turns(session),
    select,
    enabled: timelineFirst,
  });
}
