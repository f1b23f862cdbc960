import { useQuery } from "@tanstack/react-query";
import { Suspense, useId } from "react";
import { type SessionRef, sessionQueries } from "../../api/session-queries";
import { Button } from "../../components/button";
import { Spinner } from "../../components/spinner";
import { COMPOSER_INPUT_ID } from "../../lib/focus-request";
import { lazyAfterPaint } from "../../lib/lazy-after-paint";
import { COMPOSER_HINT, QUEUE_HINT } from "./composer-view";
import { ContinuedNotice } from "./continued-notice";
import { PromptQueue } from "./prompt-queue";
import { STOPPED_NOTE } from "./row-looks";
import { type PromptComposerState, usePromptComposer } from "./use-prompt-composer";

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
  const composer = usePromptComposer(session, offline);
  const { detail, draft, input, commands, refusal } = composer;
  const hintId = useId();
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
          composer.send();
        }}
      >
        <div className="mx-auto max-w-3xl space-y-2">
          {detail?.state === "stopped" ? (
            <p className="text-sm text-slate-700 dark:text-slate-300">{STOPPED_NOTE}</p>
          ) : null}
          <label htmlFor={COMPOSER_INPUT_ID} className="sr-only">
            Message
          </label>
          <Suspense fallback={null}>
            <SlashMenu menu={commands.menu} />
          </Suspense>
          <textarea
            id={COMPOSER_INPUT_ID}
            ref={input}
            rows={3}
            value={draft}
            onChange={(event) => composer.edit(event.target.value)}
            onKeyDown={composer.onKeyDown}
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
          <ComposerActions composer={composer} hintId={hintId} offline={offline} />
        </div>
      </form>
    </>
  );
}

/** The hint (why Send waits, a command's input, or how to send) and the Stop and Send buttons. */
function ComposerActions({
  composer,
  hintId,
  offline,
}: {
  composer: PromptComposerState;
  hintId: string;
  offline: boolean;
}) {
  const { blocked, running, stopping, sending } = composer;
  return (
    <div className="flex items-center justify-end gap-2">
      <p id={hintId} className="mr-auto text-xs text-slate-600 dark:text-slate-400">
        {blocked ?? composer.commands.inputHint ?? (running ? QUEUE_HINT : COMPOSER_HINT)}
      </p>
      {running ? (
        <Button
          tone="danger"
          onClick={composer.stop}
          disabled={stopping || offline}
          aria-keyshortcuts="Escape"
        >
          {stopping ? <Spinner /> : <span aria-hidden="true">■</span>}
          Stop
        </Button>
      ) : null}
      <Button
        type="submit"
        tone="primary"
        disabled={!composer.draft.trim() || sending || blocked !== undefined}
        aria-busy={sending}
      >
        {sending ? <Spinner /> : null}
        {composer.retrying ? "Try again" : "Send"}
      </Button>
    </div>
  );
}
