// The transcript query: the newest page over HTTP, folded into the same cache entry the
// session stream writes (`["sessions", "transcript", id]`), plus the older-page loader.
import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { FIRST_TRANSCRIPT_QUERY, TRANSCRIPT_PAGE_SIZE } from "../contract/first-paint";
import { TranscriptPage } from "../contract/transcript";
import { z } from "../contract/zod";
import { getJson, sessionPath } from "./http";
import { LenientEntries } from "./lenient-entries";
import type { SessionRef } from "./session-queries";
import { foldNewestPage, foldOlderPage, type TranscriptData } from "./transcript-cache";

const LenientTranscriptPage = z.extend(TranscriptPage, { entries: LenientEntries });

export const transcriptQueries = {
  all: () => ["sessions", "transcript"] as const,
  key: (sessionId: string) => [...transcriptQueries.all(), sessionId] as const,
  detail: ({ workspaceId, sessionId }: SessionRef) =>
    queryOptions({
      queryKey: transcriptQueries.key(sessionId),
      queryFn: async ({ signal, client, queryKey }): Promise<TranscriptData> => {
        const page = await getJson(
          sessionPath(workspaceId, sessionId, "/transcript"),
          LenientTranscriptPage,
          {
            signal,
            query: FIRST_TRANSCRIPT_QUERY,
          },
        );
        // The stream may have written newer entries while this read was in flight.
        return foldNewestPage(client.getQueryData<TranscriptData>(queryKey), page);
      },
      // The stream keeps it current.
      staleTime: Number.POSITIVE_INFINITY,
      // The folds in transcript-cache already keep every unchanged entry (and the whole
      // object when nothing changed). Structural sharing deep-compared the whole history on
      // every write instead: after an older page shifted the indices, it copied all 10,000
      // entries (a long task, and every row's `entry` changed identity, re-rendering it).
      structuralSharing: false,
    }),
};

/** Fetches the page below what is loaded and merges it; a rewritten history reloads. */
export async function loadOlderTranscript(
  client: QueryClient,
  ref: SessionRef,
  signal?: AbortSignal,
  /** A jump to a far entry reads bigger pages (CompozyOS's maximum too): fewer round trips. */
  limit = TRANSCRIPT_PAGE_SIZE,
): Promise<void> {
  const key = transcriptQueries.key(ref.sessionId);
  const current = client.getQueryData<TranscriptData>(key);
  if (!current?.hasOlder || current.nextBeforeSequence === undefined) return;
  const page = await getJson(
    sessionPath(ref.workspaceId, ref.sessionId, "/transcript"),
    LenientTranscriptPage,
    {
      signal,
      query: { limit, before_sequence: current.nextBeforeSequence },
    },
  );
  const result = foldOlderPage(client.getQueryData<TranscriptData>(key), page);
  if (result.kind === "reset") {
    await client.resetQueries({ queryKey: key, exact: true });
    return;
  }
  client.setQueryData<TranscriptData>(key, result.data);
}
