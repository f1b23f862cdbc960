import { useQuery } from "@tanstack/react-query";
import { Suspense, useDeferredValue, useMemo } from "react";
import { type SessionRef, sessionQueries } from "../../api/session-queries";
import { transcriptQueries } from "../../api/transcript-queries";
import { usageQueries } from "../../api/usage-queries";
import { useUsageTurns } from "../../api/use-usage-turns";
import { QueryError } from "../../components/query-error";
import { compactionRequests } from "../../lib/compaction-origin";
import { transcriptCompactions } from "../../lib/compaction-words";
import { useKeptWhileEqual } from "../../lib/kept-while-equal";
import { lazyAfterPaint } from "../../lib/lazy-after-paint";
import { CompactNow } from "./compact-now";
import { ContextMeter } from "./context-meter";
import { deriveMeterView } from "./context-meter-view";
import { withTranscriptStates } from "./marker-states";
import { TurnsList } from "./turns-list";
import { sessionTotal } from "./turns-list-view";

/** The chart is its own chunk (ADR 0211); the rail holds its place meanwhile. */
const ContextChart = lazyAfterPaint(() =>
  import("./context-chart").then((module) => module.ContextChart),
);

/**
 * The context rail: the meter, Compact now, the chart and the turns list. The stream hook
 * re-reads usage and turns after transcript frames and on reconnect (ADR 0060); the meter
 * reads the markers too, so a usage answer older than a known compaction is never shown as
 * current.
 * A daemon without `/usage/turns` (older CompozyOS) gets no turns, chart or Compact now.
 */
export function ContextRail({
  session,
  offline = false,
}: {
  session: SessionRef;
  offline?: boolean;
}) {
  const detail = useQuery(sessionQueries.detail(session));
  const usage = useQuery(usageQueries.usage(session));
  const turns = useUsageTurns(session);
  // Who asked for each compaction (a typed command, a caller), from the transcript already
  // loaded. The transcript query shares no structure (transcript-queries.ts), so this is a new
  // object after every frame or older page: it is kept while equal, or the chart and the
  // turns list (thousands of nodes in a long session) would render again each time.
  const requests = useKeptWhileEqual(
    useQuery({
      ...transcriptQueries.detail(session),
      select: (data) => Object.fromEntries(compactionRequests(data.entries)),
    }).data,
  );
  // Each compaction's state as the transcript has it (fresher than the markers' re-read).
  const states = useQuery({
    ...transcriptQueries.detail(session),
    select: (data) => transcriptCompactions(data.entries),
  }).data;
  const levelled = useMemo(
    () => (turns.data ? withTranscriptStates(turns.data, states) : turns.data),
    [turns.data, states],
  );
  const meter = deriveMeterView(usage, levelled?.compactions);
  // The chart and the turns list of a long session are thousands of nodes. On React they
  // render in the background; Preact returns the value as it is (ADR 0215), so what keeps
  // them off the scrolling path is that their inputs change only when their data does.
  const shownTurns = useDeferredValue(levelled);

  return (
    <div className="flex flex-col gap-6 p-4">
      <div className="flex flex-col gap-3">
        <ContextMeter view={meter} onRetry={() => void usage.refetch()} />
        {detail.data && turns.data !== null ? (
          <CompactNow session={session} detail={detail.data} offline={offline} />
        ) : null}
      </div>
      {turns.data === null ? null : turns.isPending ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">Loading turns</p>
      ) : turns.isError ? (
        <QueryError
          title="Turns unavailable"
          error={turns.error}
          onRetry={() => void turns.refetch()}
        />
      ) : shownTurns ? (
        <>
          <Suspense
            fallback={
              <p className="text-sm text-slate-600 dark:text-slate-300">Loading the chart</p>
            }
          >
            <ContextChart data={shownTurns} requests={requests} />
          </Suspense>
          <TurnsList
            data={shownTurns}
            requests={requests}
            total={sessionTotal(usage.data, shownTurns.turns)}
          />
        </>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-300">Loading turns</p>
      )}
    </div>
  );
}
