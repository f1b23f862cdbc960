// The open session's stream state, for the surfaces outside the session page (the sidebar
// is a sibling of the page, not a child): while the page says "Reconnecting…", the
// sidebar's row for that session must not keep saying "ready".
import { create } from "zustand";
import type { StreamState } from "./session-stream";

type StreamStatusState = {
  streams: Readonly<Record<string, StreamState>>;
  actions: {
    streamChanged: (sessionId: string, state: StreamState) => void;
    streamClosed: (sessionId: string) => void;
  };
};

const useStreamStatusStore = create<StreamStatusState>()((set) => ({
  streams: {},
  actions: {
    streamChanged: (sessionId, state) =>
      set((current) =>
        current.streams[sessionId] === state
          ? current
          : { streams: { ...current.streams, [sessionId]: state } },
      ),
    streamClosed: (sessionId) =>
      set((current) => {
        if (!(sessionId in current.streams)) return current;
        const { [sessionId]: _closed, ...streams } = current.streams;
        return { streams };
      }),
  },
}));

/** The stream state of a session whose page is open, else undefined. */
export const useStreamStatus = (sessionId: string) =>
  useStreamStatusStore((state) => state.streams[sessionId]);
export const useStreamStatusActions = () => useStreamStatusStore((state) => state.actions);
