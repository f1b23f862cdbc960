// What the prompt box does, apart from how it looks: the draft, Send (reusing a failed
// send's identity so the daemon runs it at most once), Stop (also on Escape), and the
// daemon's refusals, each dropped once it no longer applies.
import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { newPromptSend } from "../../api/prompt-identity";
import { followRefusal, type Refusal, refusalOf } from "../../api/refusal-words";
import { useCancelMutation, usePromptMutation } from "../../api/session-mutations";
import { type SessionRef, sessionQueries } from "../../api/session-queries";
import { isTurnRunning, type Session } from "../../contract/session";
import { takeFocusRequest } from "../../lib/focus-request";
import { isRetryableSendError, sendBlockedReason } from "./composer-view";
import { useDraft, useDraftActions } from "./draft-store";
import { useComposerCommands } from "./use-composer-commands";
import { useEscapeToStop } from "./use-escape-to-stop";

const OFFLINE_REASON = "Waiting for the daemon to come back…";

/** A refusal in plain words, taken away once it no longer applies (the turn ended). */
function useTurnRefusal(detail: Session | undefined) {
  const [seenRefusal, setRefusal] = useState<Refusal | null>(null);
  const now = { turnId: detail?.activity?.turn_id || undefined, state: detail?.state };
  const refusal = followRefusal(seenRefusal, now);
  if (refusal !== seenRefusal) setRefusal(refusal);
  return {
    refusal,
    clearRefusal: () => setRefusal(null),
    refused: (error: unknown) => setRefusal(refusalOf(error, now)),
  };
}

export function usePromptComposer(session: SessionRef, offline: boolean) {
  const detail = useQuery(sessionQueries.detail(session)).data;
  const draft = useDraft(session.sessionId);
  const { draftEdited, draftSent } = useDraftActions();
  const edit = (next: string) => draftEdited(session.sessionId, next);
  const prompt = usePromptMutation(session);
  const cancel = useCancelMutation(session);
  const input = useRef<HTMLTextAreaElement>(null);
  // New session asked for the message box: it is where the reader goes next.
  useEffect(() => {
    if (takeFocusRequest("composer")) input.current?.focus();
  }, []);
  const running = detail ? isTurnRunning(detail) : false;
  const commands = useComposerCommands(session, draft, edit);
  const { refusal, clearRefusal, refused } = useTurnRefusal(detail);
  const blocked = offline ? OFFLINE_REASON : sendBlockedReason(detail);
  const stop = () => {
    input.current?.focus();
    clearRefusal();
    cancel.mutate(undefined, { onError: refused });
  };
  useEscapeToStop(running && !offline && !cancel.isPending, stop);

  const failed = prompt.isError ? prompt.variables : undefined;
  const retrying =
    failed !== undefined && failed.message === draft && isRetryableSendError(prompt.error);
  const send = () => {
    if (!draft.trim() || prompt.isPending || blocked) return;
    cancel.reset();
    clearRefusal();
    // A typed `/compact` is a prompt too: the daemon runs it as Compact now and records that
    // the person typed it (ADR 0116); a daemon without that rule passes it to the agent.
    const attempt = retrying ? failed : newPromptSend(draft);
    // A reply can be slow to come back: what was typed after Send is not the sent text.
    prompt.mutate(attempt, {
      onSuccess: () => draftSent(session.sessionId, attempt.message),
      onError: refused,
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (commands.menu.onKeyDown(event)) return;
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      send();
    }
  };
  return {
    detail,
    draft,
    edit,
    input,
    commands,
    running,
    refusal,
    blocked,
    retrying,
    sending: prompt.isPending,
    stopping: cancel.isPending,
    send,
    stop,
    onKeyDown,
  };
}

export type PromptComposerState = ReturnType<typeof usePromptComposer>;
