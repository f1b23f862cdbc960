// The prompt queue of a session (ADR 0220): the messages sent while a turn ran, in the
// order they go. Nothing on the session stream announces a queue change, so while the queue
// holds anything (or a turn runs) it is re-read; mutations write their answer in at once.
import { queryOptions } from "@tanstack/react-query";
import { QueuedInputList } from "../contract/compozy-surfaces";
import { getJson, sessionPath } from "./http";
import type { SessionRef } from "./session-queries";

/** How often a non-empty queue is re-read: it drains when the turn ends. */
const QUEUE_POLL_MS = 1_000;

export const queueQueries = {
  key: (sessionId: string) => ["sessions", "queue", sessionId] as const,
  list: ({ workspaceId, sessionId }: SessionRef) =>
    queryOptions({
      queryKey: queueQueries.key(sessionId),
      queryFn: ({ signal }) =>
        getJson(sessionPath(workspaceId, sessionId, "/prompt/queue"), QueuedInputList, {
          signal,
        }),
      select: (data) => data.inputs,
      refetchInterval: (query) =>
        (query.state.data?.inputs.length ?? 0) > 0 ? QUEUE_POLL_MS : false,
    }),
};
