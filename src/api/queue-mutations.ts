// Editing, removing and sending now a queued message (CompozyOS's `PUT`/`DELETE
// …/prompt/queue/{id}` and `POST …/prompt/queue/{id}/steer`). Each answer is parsed; the
// queue and the session are re-read after, since a steer cuts the running turn short.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { PromptResultEnvelope } from "../contract/commands";
import { QueuedInputEnvelope } from "../contract/compozy-surfaces";
import { postAccepting, sendJson, sessionPath } from "./http";
import { newPromptSend } from "./prompt-identity";
import { queueQueries } from "./queue-queries";
import { type SessionRef, sessionQueries } from "./session-queries";

function useRefreshQueue(ref: SessionRef) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: queueQueries.key(ref.sessionId) }),
      client.invalidateQueries({ queryKey: sessionQueries.detail(ref).queryKey }),
    ]);
}

const entryPath = (ref: SessionRef, id: string, suffix = "") =>
  sessionPath(ref.workspaceId, ref.sessionId, `/prompt/queue/${encodeURIComponent(id)}${suffix}`);

/** New words for a queued message; each edit is its own send identity. */
function editBody(text: string) {
  const send = newPromptSend(text);
  return { text, message_id: send.message_id, idempotency_key: send.idempotency_key };
}

export function useEditQueuedMutation(ref: SessionRef) {
  const refresh = useRefreshQueue(ref);
  return useMutation({
    mutationKey: ["sessions", "queue", "edit", ref.sessionId],
    mutationFn: ({ id, text }: { id: string; text: string }) =>
      sendJson("PUT", entryPath(ref, id), editBody(text), QueuedInputEnvelope),
    onSettled: refresh,
  });
}

export function useRemoveQueuedMutation(ref: SessionRef) {
  const refresh = useRefreshQueue(ref);
  return useMutation({
    mutationKey: ["sessions", "queue", "remove", ref.sessionId],
    mutationFn: (id: string) =>
      sendJson("DELETE", entryPath(ref, id), undefined, PromptResultEnvelope),
    onSettled: refresh,
  });
}

/** "Send now": the message replaces the running turn `turnId` (the daemon refuses a stale one). */
export function useSendQueuedNowMutation(ref: SessionRef) {
  const refresh = useRefreshQueue(ref);
  return useMutation({
    mutationKey: ["sessions", "queue", "steer", ref.sessionId],
    mutationFn: ({ id, text, turnId }: { id: string; text: string; turnId: string }) =>
      postAccepting(
        entryPath(ref, id, "/steer"),
        { ...editBody(text), expected_turn_id: turnId },
        PromptResultEnvelope,
      ),
    onSettled: refresh,
  });
}
