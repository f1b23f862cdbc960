// Prompt, cancel, create and start: thin mutations that parse the daemon's answer and
// refresh the session they touched. A refusal surfaces as an `ApiError` carrying `code`.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CancelAccepted, PromptAccepted } from "../contract/commands";
import { SessionEnvelope } from "../contract/session";
import { postJson, sessionPath } from "./http";
import { type SessionRef, sessionQueries } from "./session-queries";

function useRefreshSession(ref: SessionRef) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: sessionQueries.detail(ref).queryKey }),
      client.invalidateQueries({ queryKey: sessionQueries.list().queryKey }),
    ]);
}

export function usePromptMutation(ref: SessionRef) {
  const refresh = useRefreshSession(ref);
  return useMutation({
    mutationKey: ["sessions", "prompt", ref.sessionId],
    mutationFn: (text: string) =>
      postJson(sessionPath(ref.workspaceId, ref.sessionId, "/prompt"), { text }, PromptAccepted),
    onSettled: refresh,
  });
}

export function useCancelMutation(ref: SessionRef) {
  const refresh = useRefreshSession(ref);
  return useMutation({
    mutationKey: ["sessions", "cancel", ref.sessionId],
    mutationFn: () =>
      postJson(sessionPath(ref.workspaceId, ref.sessionId, "/cancel"), {}, CancelAccepted),
    onSettled: refresh,
  });
}

export function useStartSessionMutation(ref: SessionRef) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ["sessions", "start", ref.sessionId],
    mutationFn: () =>
      postJson(sessionPath(ref.workspaceId, ref.sessionId, "/start"), {}, SessionEnvelope),
    onSuccess: (data) => {
      client.setQueryData(sessionQueries.detail(ref).queryKey, data);
      void client.invalidateQueries({ queryKey: sessionQueries.list().queryKey });
    },
  });
}

export function useCreateSessionMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ["sessions", "create"],
    mutationFn: (workspaceId: string) =>
      postJson(`/api/workspaces/${encodeURIComponent(workspaceId)}/sessions`, {}, SessionEnvelope),
    onSuccess: ({ session }) => {
      client.setQueryData(
        sessionQueries.detail({ workspaceId: session.workspace_id, sessionId: session.id })
          .queryKey,
        { session },
      );
      void client.invalidateQueries({ queryKey: sessionQueries.list().queryKey });
    },
  });
}
