import type { SessionRef } from "./session-queries";

export type SessionStreamStatus = { state: "connecting" | "open" | "reconnecting" };

export function useSessionStream(_session: SessionRef): SessionStreamStatus {
  return { state: "connecting" };
}
