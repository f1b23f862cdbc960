import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo } from "react";
import { useSearch } from "wouter";
import type { SessionRef } from "../../api/session-queries";
import { loadOlderTranscript, transcriptQueries } from "../../api/transcript-queries";
import type { SessionStreamStatus } from "../../api/use-session-stream";
import { useUsageTurns } from "../../api/use-usage-turns";
import { QueryError } from "../../components/query-error";
import { Spinner } from "../../components/spinner";
import {
  compactionOf,
  type Entry,
  speakerOf,
  TRANSCRIPT_MAX_LIMIT,
} from "../../contract/transcript";
import { compactionRequests } from "../../lib/compaction-origin";
import { markFirstScreenAfterPaint } from "../../lib/first-screen";
import { CompactionContext, type CompactionSurroundings } from "./compaction-context";
import { FindBar } from "./find-bar";
import { useFindActions } from "./find-store";
import { TimelineList } from "./timeline-list";
import { TimelineSession } from "./timeline-session";
import { useTimelineActions } from "./timeline-store";
import { interruptionReasons, markersById } from "./timeline-view";
import { useApprovalAnnouncement } from "./use-approval-announcement";
import { useCompactionAnnouncement } from "./use-compaction-announcement";
import { useFindBar } from "./use-find-bar";

/** A continued or forked session's first row: what it carries is worth showing at once. */
function isCarriedReplay(entry: Entry): boolean {
  return entry.message.parts.some(
    (part) => part.type === "data-compozy-event" && part.data.type === "session.replay_carried",
  );
}

/** Nothing but state lines, and nothing older: nobody has said anything yet. */
function isUnstarted(data: { entries: readonly Entry[]; hasOlder: boolean }): boolean {
  return (
    !data.hasOlder &&
    data.entries.every(
      (entry) =>
        speakerOf(entry.message) === "system" && !compactionOf(entry) && !isCarriedReplay(entry),
    )
  );
}

/** A new session's empty page: what to do first, in a sentence. */
function NewSessionHint() {
  return (
    <div className="m-auto max-w-sm p-6 text-center text-sm text-slate-600 dark:text-slate-300">
      <p className="font-medium text-slate-800 dark:text-slate-100">Nothing here yet.</p>
      <p className="mt-1">
        Write to the agent in the box below; Ctrl/⌘ + Enter sends. Its replies, tool calls and every
        context compaction appear here as they happen.
      </p>
    </div>
  );
}

const NO_ENTRIES: readonly Entry[] = [];

function findStartOf(search: string): { text: string; entryId: string } | undefined {
  const params = new URLSearchParams(search);
  const text = params.get("find");
  const entryId = params.get("at");
  return text && entryId ? { text, entryId } : undefined;
}

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
  const markers = useUsageTurns(session, markersById);
  const older = useMutation({
    mutationKey: ["sessions", "transcript-older", session.sessionId],
    mutationFn: (limit?: number) => loadOlderTranscript(client, session, undefined, limit),
  });
  const { sessionOpened } = useTimelineActions();
  const { findReset } = useFindActions();
  const search = useSearch();
  useEffect(() => {
    sessionOpened();
    // A search hit's link (`?find=…&at=…`) opens the session at the match, the bar open.
    findReset(findStartOf(search));
  }, [search, sessionOpened, findReset]);
  const announcement = useCompactionAnnouncement(transcript.data?.entries);
  const approvalNews = useApprovalAnnouncement(transcript.data?.entries);
  const markerMap = markers.data;
  const markerFor = useCallback((id: string) => markerMap?.get(id), [markerMap]);
  const { mutate: loadOlder } = older;
  const loadOlderOnce = useCallback(() => loadOlder(undefined), [loadOlder]);
  const loadOlderForJump = useCallback(() => loadOlder(TRANSCRIPT_MAX_LIMIT), [loadOlder]);
  const data = transcript.data;
  // No rows to wait for: what waits on the first screen may go (first-screen.ts).
  const nothingToPaint = transcript.isError || (data !== undefined && isUnstarted(data));
  useEffect(() => {
    if (nothingToPaint) markFirstScreenAfterPaint();
  }, [nothingToPaint]);
  const offline = stream.state === "reconnecting";
  const entries = data?.entries;
  const find = useFindBar(session, entries ?? NO_ENTRIES);
  const surroundings = useMemo<CompactionSurroundings>(() => {
    const reasons = interruptionReasons(entries ?? []);
    const requests = compactionRequests(entries ?? []);
    return { offline, exitFor: (id) => reasons.get(id), requestFor: (id) => requests.get(id) };
  }, [entries, offline]);

  return (
    <TimelineSession.Provider value={session}>
      <CompactionContext value={surroundings}>
        <div className="relative flex min-h-0 flex-1 flex-col">
          {/* The page's outline: h1 the session, h2 its parts; agent headings start at h3. */}
          <h2 className="sr-only">Transcript</h2>
          <FindBar find={find} />
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
            // Until someone speaks, a new session is only its state lines: say what to do instead.
            !isUnstarted(data) ? (
              <TimelineList
                entries={data.entries}
                canLoadOlder={data.hasOlder && !older.isPending && !older.isError}
                hasOlder={data.hasOlder && !older.isError}
                loadOlder={loadOlderOnce}
                loadOlderForJump={loadOlderForJump}
                markerFor={markerFor}
              />
            ) : (
              <NewSessionHint />
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
      </CompactionContext>
    </TimelineSession.Provider>
  );
}
