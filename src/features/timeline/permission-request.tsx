import { useEffect, useId, useRef } from "react";
import { Button } from "../../components/button";
import { Spinner } from "../../components/spinner";
import { DiffBlock } from "./lazy-diff-block";
import type { PermissionOption, PermissionView } from "./permission-view";
import { CommandLine } from "./tool-output";

export type ApprovalState = {
  /** The option being sent, while its request is under way. */
  sending: string | undefined;
  /** The daemon's refusal, in its words. */
  error: string | undefined;
  /** True once this tab sent an answer: focus follows the row when it turns answered. */
  answeredHere: boolean;
};

const OUTCOME_CLASSES = {
  allow: "text-emerald-800 dark:text-emerald-300",
  reject: "text-red-800 dark:text-red-300",
  closed: "text-slate-700 dark:text-slate-300",
} as const;

const OUTCOME_ICON = { allow: "✓", reject: "✕", closed: "–" } as const;

/**
 * A permission request at its tool call. Pending: what the agent wants to do and its own
 * options as buttons, in its words. Answered: one line saying what was chosen and by whom.
 */
export function PermissionRequest({
  view,
  state,
  onChoose,
}: {
  view: PermissionView;
  state: ApprovalState;
  onChoose: (option: PermissionOption) => void;
}) {
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  const titleId = useId();
  const pending = view.pending;
  useEffect(() => {
    // The buttons just went away under the user's focus: keep it on this row.
    if (!pending && state.answeredHere) outcomeRef.current?.focus();
  }, [pending, state.answeredHere]);

  if (!view.pending) {
    const tone = view.outcomeTone ?? "closed";
    return (
      <p
        ref={outcomeRef}
        tabIndex={-1}
        className="flex flex-wrap items-baseline gap-x-2 rounded-md px-2 py-1 text-xs text-slate-700 focus-visible:outline-2 dark:text-slate-300"
      >
        <span className={`font-semibold ${OUTCOME_CLASSES[tone]}`}>
          <span aria-hidden="true">{OUTCOME_ICON[tone]}</span> <span>{view.outcome}</span>
        </span>
        <span className="min-w-0 break-words">{view.title}</span>
        {view.outcomeDetail ? (
          <span className="text-slate-600 dark:text-slate-400">{view.outcomeDetail}</span>
        ) : null}
      </p>
    );
  }

  const firstAllow = view.options.find((option) => option.tone === "allow");
  return (
    <fieldset
      // Three labelled parts, not one container: a name computed from a container's text
      // runs the badge into the words beside it ("approvalexecute"); separate ids are
      // joined with spaces.
      aria-labelledby={
        view.toolKind
          ? `${titleId}-ask ${titleId}-kind ${titleId}-title`
          : `${titleId}-ask ${titleId}-title`
      }
      className="min-w-0 space-y-2 rounded-md border-2 border-amber-500 bg-amber-50 p-3 text-sm dark:border-amber-400 dark:bg-amber-950/40"
    >
      <div className="space-y-0.5">
        <p className="text-xs font-semibold tracking-wide text-amber-900 uppercase dark:text-amber-200">
          <span aria-hidden="true">⚠ </span>
          <span id={`${titleId}-ask`}>Needs your approval:</span>
          {view.toolKind ? (
            <span
              id={`${titleId}-kind`}
              className="ml-2 rounded bg-amber-100 px-1.5 font-mono normal-case tracking-normal dark:bg-amber-900"
            >
              {view.toolKind}
            </span>
          ) : null}
        </p>
        <p
          id={`${titleId}-title`}
          className="font-medium break-words text-slate-900 dark:text-slate-100"
        >
          {view.title}
        </p>
      </div>
      {view.notes.map((note) => (
        <p key={note} className="text-xs text-slate-700 dark:text-slate-300">
          {note}
        </p>
      ))}
      {view.command !== undefined && view.command !== view.title ? (
        <CommandLine command={view.command} />
      ) : null}
      {view.diffs.map((diff) => (
        <DiffBlock key={diff.path} diff={diff} />
      ))}
      {view.options.length === 0 ? (
        <p className="text-xs text-slate-700 dark:text-slate-300">
          The agent offered no options to choose from.
        </p>
      ) : (
        <div className="flex flex-wrap gap-2">
          {view.options.map((option) => (
            <Button
              key={option.optionId}
              tone={
                option.tone === "reject"
                  ? "danger"
                  : option === firstAllow
                    ? "primary"
                    : "secondary"
              }
              disabled={state.sending !== undefined}
              aria-busy={state.sending === option.optionId}
              onClick={() => onChoose(option)}
              className="max-w-full text-left"
            >
              {state.sending === option.optionId ? <Spinner /> : null}
              <span className="break-words">{option.label}</span>
            </Button>
          ))}
        </div>
      )}
      {state.error ? (
        <p role="alert" className="text-xs text-red-800 dark:text-red-300">
          {state.error}
        </p>
      ) : null}
    </fieldset>
  );
}
