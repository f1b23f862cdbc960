import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useId, useState } from "react";
import {
  useEditQueuedMutation,
  useRemoveQueuedMutation,
  useSendQueuedNowMutation,
} from "../../api/queue-mutations";
import { queueQueries } from "../../api/queue-queries";
import { refusalText } from "../../api/refusal-words";
import { type SessionRef, sessionQueries } from "../../api/session-queries";
import { Button } from "../../components/button";
import type { QueuedInput } from "../../contract/compozy-surfaces";
import { focusOnMount } from "../../lib/focus-on-mount";
import { QUEUE_COPY, queueTiming } from "./prompt-queue-view";

/**
 * The messages sent while a turn ran, above the composer, in the order they go: each can
 * be edited, removed, or sent now (it replaces the running turn). Hidden when empty.
 */
export function PromptQueue({ session, offline }: { session: SessionRef; offline: boolean }) {
  const queue = useQuery(queueQueries.list(session));
  const detail = useQuery(sessionQueries.detail(session));
  const edit = useEditQueuedMutation(session);
  const remove = useRemoveQueuedMutation(session);
  const sendNow = useSendQueuedNowMutation(session);
  const headingId = useId();
  const inputs = queue.data ?? [];
  if (inputs.length === 0) return null;
  const turnId = detail.data?.activity?.turn_id || undefined;
  const failure = edit.error ?? remove.error ?? sendNow.error;
  return (
    <section
      aria-labelledby={headingId}
      className="border-t border-slate-200 bg-slate-50 px-3 py-2 dark:border-slate-800 dark:bg-slate-900/60"
    >
      <div className="mx-auto max-w-3xl space-y-2">
        <div>
          <h2 id={headingId} className="text-sm font-semibold">
            {QUEUE_COPY.heading(inputs.length)}
          </h2>
          <p className="text-xs text-slate-600 dark:text-slate-300">
            {queueTiming(detail.data, turnId)}
          </p>
        </div>
        <ol className="space-y-1">
          {inputs.map((input, index) => (
            <QueuedRow
              key={input.id}
              input={input}
              position={index + 1}
              busy={offline}
              onSave={(text) => edit.mutateAsync({ id: input.id, text })}
              onRemove={() => remove.mutate(input.id)}
              onSendNow={
                turnId === undefined
                  ? undefined
                  : () => sendNow.mutate({ id: input.id, text: input.text, turnId })
              }
            />
          ))}
        </ol>
        {failure ? (
          <p role="alert" className="text-xs text-red-800 dark:text-red-300">
            {refusalText(failure)}
          </p>
        ) : null}
      </div>
    </section>
  );
}

function QueuedRow({
  input,
  position,
  busy,
  onSave,
  onRemove,
  onSendNow,
}: {
  input: QueuedInput;
  position: number;
  busy: boolean;
  onSave: (text: string) => Promise<unknown>;
  onRemove: () => void;
  onSendNow: (() => void) | undefined;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const reasonId = useId();
  const problemId = useId();
  const name = `queued message ${position}`;
  const save = () => {
    if (draft === null) return;
    if (draft.trim() === "") return setProblem(QUEUE_COPY.emptyEdit);
    setProblem(null);
    void onSave(draft).then(
      () => setDraft(null),
      () => undefined,
    );
  };
  // On the editor and its buttons: Escape leaves the edit wherever focus is in it.
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === "Escape") {
      // Closes the edit only: it must not also stop the running turn.
      event.preventDefault();
      setDraft(null);
      setProblem(null);
    } else if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      save();
    }
  };
  return (
    <li className="rounded-md border border-slate-200 bg-white px-2 py-1.5 dark:border-slate-700 dark:bg-slate-950">
      {draft === null ? (
        <p className="line-clamp-3 text-sm break-words whitespace-pre-wrap">{input.text}</p>
      ) : (
        <>
          <label className="sr-only" htmlFor={`${reasonId}-edit`}>
            {`Edit ${name}`}
          </label>
          <textarea
            id={`${reasonId}-edit`}
            // The person just asked to edit this message.
            ref={focusOnMount}
            rows={2}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onKeyDown}
            aria-invalid={problem !== null || undefined}
            aria-describedby={problem ? problemId : undefined}
            className="block w-full resize-y rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 focus-visible:outline-2 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
          />
          {problem ? (
            <p id={problemId} className="text-xs text-red-800 dark:text-red-300">
              {problem}
            </p>
          ) : null}
        </>
      )}
      <div className="mt-1 flex flex-wrap items-center justify-end gap-1.5">
        {draft === null ? (
          <>
            <Button
              size="sm"
              aria-label={`Edit ${name}`}
              disabled={busy}
              onClick={() => setDraft(input.text)}
            >
              Edit
            </Button>
            <Button
              size="sm"
              tone="danger"
              aria-label={`Remove ${name}`}
              disabled={busy}
              onClick={onRemove}
            >
              Remove
            </Button>
            <Button
              size="sm"
              tone="primary"
              aria-label={`Send now ${name}`}
              aria-disabled={busy || onSendNow === undefined || undefined}
              aria-describedby={onSendNow === undefined ? reasonId : undefined}
              onClick={() => {
                if (!busy) onSendNow?.();
              }}
            >
              Send now
            </Button>
            {onSendNow === undefined ? (
              <span id={reasonId} className="sr-only">
                {QUEUE_COPY.sendNowWaits}
              </span>
            ) : null}
          </>
        ) : (
          <>
            <Button size="sm" onKeyDown={onKeyDown} onClick={() => setDraft(null)}>
              Cancel
            </Button>
            <Button
              size="sm"
              tone="primary"
              aria-label={`Save ${name}`}
              onKeyDown={onKeyDown}
              onClick={save}
            >
              Save
            </Button>
          </>
        )}
      </div>
    </li>
  );
}
