// Continue and fork (ADR 0087): the preview of what the new session's agent would be sent,
// and the mutation that starts it. The preview is read fresh each time the panel opens.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { DerivePreview, type DeriveSessionBody } from "../contract/derive";
import { SessionEnvelope } from "../contract/session";
import { getJson, postJson, sessionPath } from "./http";
import { type SessionRef, sessionQueries } from "./session-queries";

export type DeriveKind = "continue" | "fork";

export const deriveQueries = {
  preview: (ref: SessionRef) =>
    queryOptions({
      queryKey: ["sessions", ref.workspaceId, ref.sessionId, "derive-preview"] as const,
      queryFn: ({ signal }) =>
        getJson(sessionPath(ref.workspaceId, ref.sessionId, "/derive/preview"), DerivePreview, {
          signal,
        }),
      staleTime: 0,
    }),
};

export function useDeriveSessionMutation(ref: SessionRef) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ["sessions", "derive", ref.sessionId],
    mutationFn: ({ kind, body }: { kind: DeriveKind; body: DeriveSessionBody }) =>
      postJson(sessionPath(ref.workspaceId, ref.sessionId, `/${kind}`), body, SessionEnvelope),
    onSuccess: ({ session }) => {
      client.setQueryData(
        // Continue and fork stay in the source's workspace.
        sessionQueries.detail({
          workspaceId: session.workspace_id ?? ref.workspaceId,
          sessionId: session.id,
        }).queryKey,
        { session },
      );
      void client.invalidateQueries({ queryKey: sessionQueries.list().queryKey });
      void client.invalidateQueries({ queryKey: sessionQueries.detail(ref).queryKey });
    },
  });
}
