// The ONE session stream hook: opens `SessionStream` for the page's session and reports
// its connection state. The data itself goes to the query cache, never into React state.
// A stream the daemon ended with `session_stopped` reopens once the session runs again
// (a prompt resumes a stopped session), which the session query tells us.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { type SessionRef, sessionQueries } from "./session-queries";
import { type EventSourceFactory, SessionStream, type StreamState } from "./session-stream";
import { useStreamStatusActions } from "./stream-status-store";

export type SessionStreamStatus = { state: StreamState };

export function useSessionStream(
  { workspaceId, sessionId }: SessionRef,
  createSource?: EventSourceFactory,
): SessionStreamStatus {
  const client = useQueryClient();
  const [stream, setStream] = useState<SessionStream>();
  const [state, setState] = useState<StreamState>("connecting");
  const { streamChanged, streamClosed } = useStreamStatusActions();
  const sessionState = useQuery({
    ...sessionQueries.detail({ workspaceId, sessionId }),
    select: (data) => data.session.state,
  }).data;
  useEffect(() => {
    if (!createSource && typeof EventSource === "undefined") return;
    const next = new SessionStream(client, { workspaceId, sessionId }, createSource);
    setStream(next);
    setState(next.state);
    streamChanged(sessionId, next.state);
    const unsubscribe = next.subscribe(() => {
      setState(next.state);
      streamChanged(sessionId, next.state);
    });
    next.start();
    return () => {
      unsubscribe();
      next.stop();
      streamClosed(sessionId);
    };
  }, [client, workspaceId, sessionId, createSource, streamChanged, streamClosed]);
  const running = sessionState !== undefined && sessionState !== "stopped";
  useEffect(() => {
    if (running) stream?.wake();
  }, [running, stream]);
  return { state };
}
