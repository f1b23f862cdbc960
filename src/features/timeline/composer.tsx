import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, Suspense, useEffect, useId, useRef, useState } from "react";
import { newPromptSend } from "../../api/prompt-identity";
import { followRefusal, type Refusal, refusalOf } from "../../api/refusal-words";
import { useCancelMutation, usePromptMutation } from "../../api/session-mutations";
import { type SessionRef, sessionQueries } from "../../api/session-queries";
import { Button } from "../../components/button";
import { Spinner } from "../../components/spinner";
import { isTurnRunning } from "../../contract/session";
import { COMPOSER_INPUT_ID, takeFocusRequest } from "../../lib/focus-request";
import { lazyAfterPaint } from "../../lib/lazy-after-paint";
import {
  COMPOSER_HINT,
  isRetryableSendError,
  QUEUE_HINT,
  sendBlockedReason,
} from "./composer-view";
import { ContinuedNotice } from "./continued-notice";
import { useDraft, useDraftActions } from "./draft-store";
import { PromptQueue } from "./prompt-queue";
import { useComposerCommands } from "./use-composer-commands";
import { useEscapeToStop } from "./use-escape-to-stop";

/** The slash menu opens on "/" only: a chunk of its own (ADR 0211). */
const SlashMenu = lazyAfterPaint(() => import("./slash-menu").then((module) => module.SlashMenu));

/**
 * The prompt box: Send (Ctrl/⌘+Enter; while a turn runs it queues, ADR 0220, and the queue
 * shows above), Stop (or Escape) while a turn runs, the daemon's
 * refusals inline. Sending the same draft again after a failure that may not have reached
 * the daemon reuses that send's identity, so the daemon runs it at most once. `offline`
 * (the stream is down): nothing can reach the daemon, so Send and Stop wait; the draft stays.
 */
export function Composer({ session, offline = false }: { session: SessionRef; offline?: boolean }) {
  const detail = useQuery(sessionQueries.detail(session));
  // A continued session takes no prompts (the daemon refuses them): say where to go instead.
  if (detail.data?.derivation?.continued_in !== undefined) {
    return <ContinuedNotice session={session} detail={detail.data} />;
  }
  return <PromptComposer session={session} offline={offline} />;
}

function PromptComposer({ session, offline }: { session: SessionRef; offline: boolean }) {
  const detail = useQuery(sessionQueries.detail(session));
  const draft = useDraft(session.sessionId);
  const { draftEdited, draftSent } = useDraftActions();
  const prompt = usePromptMutation(session);
  const cancel = useCancelMutation(session);
  const inputId = COMPOSER_INPUT_ID;
  const input = useRef<HTMLTextAreaElement>(null);
  // New session asked for the message box: it is where the reader goes next.
  const hintId = useId();
  useEffect(() => {
    if (takeFocusRequest("composer")) input.current?.focus();
  }, []);
  const running = detail.data ? isTurnRunning(detail.data) : false;
  const commands = useComposerCommands(session, draft, (next) =>
    draftEdited(session.sessionId, next),
  );
  // A refusal in plain words, taken away once it no longer applies (the turn ended).
  const [seenRefusal, setRefusal] = useState<Refusal | null>(null);
  const now = {
    turnId: detail.data?.activity?.turn_id || undefined,
    state: detail.data?.state,
  };
  const refusal = followRefusal(seenRefusal, now);
  if (refusal !== seenRefusal) setRefusal(refusal);
  const refused = (error: unknown) => setRefusal(refusalOf(error, now));
  const blocked = offline ? OFFLINE_REASON : sendBlockedReason(detail.data);
  const stop = () => {
    input.current?.focus();
    setRefusal(null);
    cancel.mutate(undefined, { onError: refused });
  };
  useEscapeToStop(running && !offline && !cancel.isPending, stop);

  const failed = prompt.isError ? prompt.variables : undefined;
  const retrying =
    failed !== undefined && failed.message === draft && isRetryableSendError(prompt.error);

  const send = () => {
    if (!draft.trim() || prompt.isPending || blocked) return;
    cancel.reset();
    setRefusal(null);
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

  return (
    <>
      <PromptQueue session={session} offline={offline} />
      <form
        className="border-t border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-950"
        onSubmit={(event) => {
          event.preventDefault();
          // Send (or Stop, below) is about to be disabled or removed, which would drop
          // keyboard focus to <body>: hand it back to the text area instead.
          input.current?.focus();
          send();
        }}
      >
        <div className="mx-auto max-w-3xl space-y-2">
          {detail.data?.state === "stopped" ? (
            <p className="text-sm text-slate-700 dark:text-slate-300">
              This session is stopped. Sending a message resumes it.
            </p>
          ) : null}
          <label htmlFor={inputId} className="sr-only">
            Message
          </label>
          <Suspense fallback={null}>
            <SlashMenu menu={commands.menu} />
          </Suspense>
          <textarea
            id={inputId}
            ref={input}
            rows={3}
            value={draft}
            onChange={(event) => draftEdited(session.sessionId, event.target.value)}
            onKeyDown={onKeyDown}
            aria-describedby={hintId}
            {...commands.menu.inputProps}
            placeholder="Message the agent… (/ for commands)"
            className="block w-full resize-y rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus-visible:outline-2 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-400"
          />
          {refusal ? (
            <p role="alert" className="text-sm text-red-800 dark:text-red-300">
              {refusal.message}
            </p>
          ) : null}
          <div className="flex items-center justify-end gap-2">
            <p id={hintId} className="mr-auto text-xs text-slate-600 dark:text-slate-400">
              {blocked ?? commands.inputHint ?? (running ? QUEUE_HINT : COMPOSER_HINT)}
            </p>
            {running ? (
              <Button
                tone="danger"
                onClick={stop}
                disabled={cancel.isPending || offline}
                aria-keyshortcuts="Escape"
              >
                {cancel.isPending ? <Spinner /> : <span aria-hidden="true">■</span>}
                Stop
              </Button>
            ) : null}
            <Button
              type="submit"
              tone="primary"
              disabled={!draft.trim() || prompt.isPending || blocked !== undefined}
              aria-busy={prompt.isPending}
            >
              {prompt.isPending ? <Spinner /> : null}
              {retrying ? "Try again" : "Send"}
            </Button>
          </div>
        </div>
      </form>
    </>
  );
}

const OFFLINE_REASON = "Waiting for the daemon to come back…";
