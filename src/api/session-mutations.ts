// Prompt, cancel, create, rename and stop: thin mutations that parse the daemon's answer
// and refresh the session they touched. A refusal surfaces as an `ApiError` carrying
// `code`. There is no "start": a prompt resumes a stopped session (CompozyOS has no
// `…/start`).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CancelResult, PromptResultEnvelope } from "../contract/commands";
import { SessionEnvelope } from "../contract/session";
import {
  deleteNoContent,
  isApiError,
  patchJson,
  postAccepting,
  postJson,
  postNoContent,
  sessionPath,
} from "./http";
import type { PromptSend } from "./prompt-identity";
import { queueQueries } from "./queue-queries";
import { type SessionRef, sessionQueries } from "./session-queries";
import { usageQueries } from "./usage-queries";

function useRefreshSession(ref: SessionRef) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: sessionQueries.detail(ref).queryKey }),
      client.invalidateQueries({ queryKey: sessionQueries.list().queryKey }),
      // A send while a turn runs lands in the queue (ADR 0220).
      client.invalidateQueries({ queryKey: queueQueries.key(ref.sessionId) }),
    ]);
}

/** How often a send that never reached the daemon is tried again, with the same identity. */
const NETWORK_RETRIES = 2;

/**
 * Sends one prompt. The caller makes the `PromptSend` once per send (`newPromptSend`), so
 * the automatic retries here and a later "Try again" (`mutate(variables)`) all carry the
 * same `message_id` and `idempotency_key`: the daemon runs the send at most once.
 */
export function usePromptMutation(ref: SessionRef) {
  const refresh = useRefreshSession(ref);
  return useMutation({
    mutationKey: ["sessions", "prompt", ref.sessionId],
    mutationFn: (send: PromptSend) =>
      postAccepting(
        sessionPath(ref.workspaceId, ref.sessionId, "/prompt"),
        send,
        PromptResultEnvelope,
      ),
    retry: (failures, error) => failures < NETWORK_RETRIES && isApiError(error, "network"),
    retryDelay: (attempt) => Math.min(4_000, 250 * 2 ** attempt),
    onSettled: refresh,
  });
}

export function useCancelMutation(ref: SessionRef) {
  const refresh = useRefreshSession(ref);
  return useMutation({
    mutationKey: ["sessions", "cancel", ref.sessionId],
    mutationFn: () =>
      postJson(sessionPath(ref.workspaceId, ref.sessionId, "/prompt/cancel"), {}, CancelResult),
    onSettled: refresh,
  });
}

export function useStopSessionMutation(ref: SessionRef) {
  const refresh = useRefreshSession(ref);
  const client = useQueryClient();
  return useMutation({
    mutationKey: ["sessions", "stop", ref.sessionId],
    mutationFn: () => postNoContent(sessionPath(ref.workspaceId, ref.sessionId, "/stop")),
    // Stopping ends a compaction in progress too: the rail's markers and meter move with it.
    onSettled: () =>
      Promise.all([
        refresh(),
        client.invalidateQueries({ queryKey: usageQueries.usageKey(ref.sessionId) }),
        client.invalidateQueries({ queryKey: usageQueries.turnsKey(ref.sessionId) }),
      ]),
  });
}

export function useRenameSessionMutation(ref: SessionRef) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ["sessions", "rename", ref.sessionId],
    mutationFn: (name: string) =>
      patchJson(sessionPath(ref.workspaceId, ref.sessionId), { name }, SessionEnvelope),
    onSuccess: (data) => client.setQueryData(sessionQueries.detail(ref).queryKey, data),
    onSettled: () => client.invalidateQueries({ queryKey: sessionQueries.list().queryKey }),
  });
}

/** Archive hides a stopped session from the list; unarchive brings it back. */
export function useArchiveSessionMutation(ref: SessionRef) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ["sessions", "archive", ref.sessionId],
    mutationFn: (archived: boolean) =>
      postJson(
        sessionPath(ref.workspaceId, ref.sessionId, archived ? "/archive" : "/unarchive"),
        {},
        SessionEnvelope,
      ),
    onSuccess: (data) => client.setQueryData(sessionQueries.detail(ref).queryKey, data),
    onSettled: () => client.invalidateQueries({ queryKey: sessionQueries.list().queryKey }),
  });
}

/** Deletes the session and its history; the daemon refuses while a turn runs. */
export function useDeleteSessionMutation(ref: SessionRef) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ["sessions", "delete", ref.sessionId],
    mutationFn: () => deleteNoContent(sessionPath(ref.workspaceId, ref.sessionId)),
    onSuccess: () => {
      client.removeQueries({ queryKey: sessionQueries.detail(ref).queryKey });
      client.removeQueries({ queryKey: queueQueries.key(ref.sessionId) });
      return client.invalidateQueries({ queryKey: sessionQueries.list().queryKey });
    },
  });
}

export type CreateSession = { workspace: string; agent_name?: string; name?: string };

export function useCreateSessionMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ["sessions", "create"],
    mutationFn: (body: CreateSession) => postJson("/api/sessions", body, SessionEnvelope),
    onSuccess: ({ session }, body) => {
      client.setQueryData(
        sessionQueries.detail({
          workspaceId: session.workspace_id ?? body.workspace,
          sessionId: session.id,
        }).queryKey,
        { session },
      );
      void client.invalidateQueries({ queryKey: sessionQueries.list().queryKey });
    },
  });
}
