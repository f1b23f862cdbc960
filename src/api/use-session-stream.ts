// The ONE session stream hook: opens `SessionStream` for the page's session and reports
// its connection state. The data itself goes to the query cache, never into React state.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { SessionRef } from "./session-queries";
import { type EventSourceFactory, SessionStream, type StreamState } from "./session-stream";

export type SessionStreamStatus = { state: StreamState };

export function useSessionStream(
  { workspaceId, sessionId }: SessionRef,
  createSource?: EventSourceFactory,
): SessionStreamStatus {
  const client = useQueryClient();
  const [state, setState] = useState<StreamState>("connecting");
  useEffect(() => {
    if (!createSource && typeof EventSource === "undefined") return;
    const stream = new SessionStream(client, { workspaceId, sessionId }, createSource);
    setState(stream.state);
    const unsubscribe = stream.subscribe(() => setState(stream.state));
    stream.start();
    return () => {
      unsubscribe();
      stream.stop();
    };
  }, [client, workspaceId, sessionId, createSource]);
  return { state };
}
