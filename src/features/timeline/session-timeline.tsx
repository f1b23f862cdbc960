import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect } from "react";
import type { SessionRef } from "../../api/session-queries";
import { loadOlderTranscript, transcriptQueries } from "../../api/transcript-queries";
import { usageQueries } from "../../api/usage-queries";
import type { SessionStreamStatus } from "../../api/use-session-stream";
import { QueryError } from "../../components/query-error";
import { Spinner } from "../../components/spinner";
import { TimelineList } from "./timeline-list";
import { TimelineSession } from "./timeline-session";
import { useTimelineActions } from "./timeline-store";
import { markersById } from "./timeline-view";
import { useApprovalAnnouncement } from "./use-approval-announcement";
import { useCompactionAnnouncement } from "./use-compaction-announcement";

/** The live transcript of one session: read over HTTP, kept current by the stream. */
export function SessionTimeline({
  session,
  stream,
}: {
  session: SessionRef;
  stream: SessionStreamStatus;
}) {
  const client = useQueryClient();
  const transcript = useQuery(transcriptQueries.detail(session));
  const markers = useQuery({ ...usageQueries.turns(session), select: markersById });
  const older = useMutation({
    mutationKey: ["sessions", "transcript-older", session.sessionId],
    mutationFn: () => loadOlderTranscript(client, session),
  });
  const { sessionOpened } = useTimelineActions();
  useEffect(() => sessionOpened(), [sessionOpened]);
  const announcement = useCompactionAnnouncement(transcript.data?.entries);
  const approvalNews = useApprovalAnnouncement(transcript.data?.entries);
  const markerMap = markers.data;
  const markerFor = useCallback((id: string) => markerMap?.get(id), [markerMap]);
  const { mutate: loadOlder } = older;
  const loadOlderOnce = useCallback(() => loadOlder(), [loadOlder]);
  const data = transcript.data;

  return (
    <TimelineSession.Provider value={session}>
      <div className="relative flex min-h-0 flex-1 flex-col">
        {stream.state === "reconnecting" ? (
          <p
            role="status"
            className="absolute top-2 right-3 z-10 inline-flex items-center gap-1.5 rounded-full border border-amber-400 bg-amber-50 px-2.5 py-0.5 text-xs font-medium text-amber-900 shadow-sm dark:border-amber-600 dark:bg-amber-950 dark:text-amber-100"
          >
            <Spinner /> Reconnecting…
          </p>
        ) : null}
        {older.isError ? (
          <div className="px-3 pt-2">
            <QueryError
              title="Couldn't load earlier entries"
              error={older.error}
              onRetry={loadOlderOnce}
            />
          </div>
        ) : null}
        {data ? (
          data.entries.length > 0 ? (
            <TimelineList
              entries={data.entries}
              canLoadOlder={data.hasOlder && !older.isPending && !older.isError}
              loadOlder={loadOlderOnce}
              markerFor={markerFor}
            />
          ) : (
            <p className="m-auto p-6 text-sm text-slate-600 dark:text-slate-300">
              No messages yet. Send one below to start.
            </p>
          )
        ) : transcript.isError ? (
          <div className="p-4">
            <QueryError
              title="Couldn't load the transcript"
              error={transcript.error}
              onRetry={() => transcript.refetch()}
            />
          </div>
        ) : (
          <p className="m-auto inline-flex items-center gap-2 p-6 text-sm text-slate-600 dark:text-slate-300">
            <Spinner /> Loading transcript…
          </p>
        )}
        <div aria-live="polite" className="sr-only">
          <span key={announcement.id}>{announcement.text}</span>
          <span key={`approval-${approvalNews.id}`}>{approvalNews.text}</span>
        </div>
      </div>
    </TimelineSession.Provider>
  );
}
