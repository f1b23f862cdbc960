// Compact now: the request and its mutation options. The 202 only means "accepted"; the
// outcome arrives through the transcript and the stream, so on settle we re-read what the
// request may have changed (usage, turns, the session's activity).
import { mutationOptions, type QueryClient } from "@tanstack/react-query";
import { CLIENT_ID_HEADER, CompactAccepted } from "../contract/commands";
import { randomId } from "../lib/random-id";
import { postJson, sessionPath } from "./http";
import { type SessionRef, sessionQueries } from "./session-queries";
import { usageQueries } from "./usage-queries";

let tabClientId: string | undefined;

/** One random id per tab (module lifetime), `web-` so the daemon attributes it to the web. */
export function webClientId(): string {
  tabClientId ??= `web-${randomId()}`;
  return tabClientId;
}

function compactSession({ workspaceId, sessionId }: SessionRef): Promise<CompactAccepted> {
  return postJson(sessionPath(workspaceId, sessionId, "/compact"), {}, CompactAccepted, {
    headers: { [CLIENT_ID_HEADER]: webClientId() },
  });
}

export const compactSessionMutation = (queryClient: QueryClient, ref: SessionRef) =>
  mutationOptions({
    mutationKey: [...sessionQueries.all(), "compact", ref.sessionId] as const,
    mutationFn: () => compactSession(ref),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: usageQueries.usageKey(ref.sessionId) }),
        queryClient.invalidateQueries({ queryKey: usageQueries.turnsKey(ref.sessionId) }),
        queryClient.invalidateQueries({ queryKey: sessionQueries.detail(ref).queryKey }),
      ]),
  });
