// Pins (ADR 0165): the pinned entry ids of a session, and the toggle that pins or unpins
// one. The list is `null` against a daemon without the route (CompozyOS answers 404): the
// timeline then offers no pin control rather than one that cannot persist.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { PinEnvelope, PinList } from "../contract/pins";
import { auditQueries } from "./audit-queries";
import { deleteNoContent, getJson, putJson, sessionPath } from "./http";
import type { SessionRef } from "./session-queries";
import { isMissingEndpoint } from "./usage-queries";

/** Pinned entry id → when it was pinned. */
export type PinnedEntries = ReadonlyMap<string, string>;

export const pinQueries = {
  all: () => ["sessions", "pins"] as const,
  key: (sessionId: string) => [...pinQueries.all(), sessionId] as const,
  list: ({ workspaceId, sessionId }: SessionRef) =>
    queryOptions({
      queryKey: pinQueries.key(sessionId),
      queryFn: async ({ signal }): Promise<PinnedEntries | null> => {
        try {
          const { pins } = await getJson(sessionPath(workspaceId, sessionId, "/pins"), PinList, {
            signal,
          });
          return new Map(pins.map((pin) => [pin.entry_id, pin.pinned_at]));
        } catch (error) {
          if (isMissingEndpoint(error)) return null;
          throw error;
        }
      },
      // Only this tab changes them, through the toggle below.
      staleTime: Number.POSITIVE_INFINITY,
    }),
};

const pinPath = (ref: SessionRef, entryId: string) =>
  sessionPath(ref.workspaceId, ref.sessionId, `/pins/${encodeURIComponent(entryId)}`);

/**
 * Pins or unpins one message. The list changes at once (the toggle reads "Pinned" on
 * the press) and goes back if the daemon refuses; the session's audits are asked again
 * after, since a pin changes what they flag.
 */
export function usePinMutation(ref: SessionRef) {
  const client = useQueryClient();
  const key = pinQueries.key(ref.sessionId);
  return useMutation({
    mutationKey: ["sessions", "pin", ref.sessionId],
    mutationFn: async ({ entryId, pinned }: { entryId: string; pinned: boolean }) => {
      if (pinned) await putJson(pinPath(ref, entryId), PinEnvelope);
      else await deleteNoContent(pinPath(ref, entryId));
    },
    onMutate: async ({ entryId, pinned }) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<PinnedEntries | null>(key);
      const next = new Map(before ?? []);
      if (pinned) next.set(entryId, next.get(entryId) ?? new Date().toISOString());
      else next.delete(entryId);
      client.setQueryData<PinnedEntries | null>(key, next);
      return { before };
    },
    onError: (_error, _variables, context) => {
      if (context) client.setQueryData(key, context.before);
    },
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: key }),
        client.invalidateQueries({ queryKey: auditQueries.all(ref.sessionId) }),
      ]),
  });
}
