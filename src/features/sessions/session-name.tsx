import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { Button } from "../../components/button";
import { focusOnMount } from "../../lib/focus-on-mount";
import { takeFocusRequest } from "../../lib/focus-request";

/**
 * The session's name as the page's h1, with Rename when the daemon can rename: the field
 * saves on Enter, leaves on Escape (without stopping a turn) and gives focus back to Rename.
 */
export function SessionName({
  title,
  onRename,
}: {
  title: string;
  onRename?: ((name: string) => Promise<unknown>) | undefined;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(title);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  const fieldId = useId();
  const problemId = useId();
  const returnFocus = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);
  // A session opened from the sidebar: the reader lands on its name (after every render,
  // as the request may come while this page is already shown for another session).
  useEffect(() => {
    if (heading.current && takeFocusRequest("session-heading")) heading.current.focus();
  });
  // Once the field is gone, focus returns to the button that opened it.
  useEffect(() => {
    if (editing || !returnFocus.current) return;
    returnFocus.current = false;
    renameButton.current?.focus();
  }, [editing]);

  const finish = () => {
    returnFocus.current = true;
    setEditing(false);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = draft.trim();
    // An empty name is not "no change": say why it is not saved, and keep the field.
    if (!name) return setProblem(emptyNameProblem(title));
    if (!onRename || name === title) return finish();
    setSaving(true);
    onRename(name).then(
      () => {
        setSaving(false);
        setProblem(undefined);
        finish();
      },
      (error: unknown) => {
        setSaving(false);
        setProblem(error instanceof Error ? error.message : "Couldn't rename the session.");
      },
    );
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    setProblem(undefined);
    finish();
  };

  if (editing && onRename) {
    return (
      <form onSubmit={submit} className="flex flex-wrap items-center gap-2">
        {/* The page keeps its one h1 while the visible name is a field. */}
        <h1 className="sr-only">{title}</h1>
        <label htmlFor={fieldId} className="sr-only">
          Session name
        </label>
        <input
          id={fieldId}
          value={draft}
          maxLength={200}
          aria-invalid={problem === undefined ? undefined : true}
          aria-describedby={problem === undefined ? undefined : problemId}
          // The field appears because the reader asked to rename: it is where they type.
          ref={focusOnMount}
          onChange={(event) => {
            setDraft(event.target.value);
            if (problem !== undefined && event.target.value.trim()) setProblem(undefined);
          }}
          onKeyDown={onKeyDown}
          className="min-w-0 flex-1 rounded border border-slate-300 bg-white px-2 py-0.5 text-base font-semibold dark:border-slate-600 dark:bg-slate-900"
        />
        <Button type="submit" size="sm" tone="primary" disabled={saving} aria-busy={saving}>
          Save
        </Button>
        {problem ? (
          <p id={problemId} role="alert" className="w-full text-xs text-red-800 dark:text-red-300">
            {problem}
          </p>
        ) : null}
      </form>
    );
  }
  return (
    <div className="flex min-w-0 items-center gap-1">
      <h1
        ref={heading}
        tabIndex={-1}
        className="truncate text-base font-semibold focus-visible:outline-2"
      >
        {title}
      </h1>
      {onRename ? (
        // 24 × 24 px at least: a touch target beside Stop session (WCAG 2.5.8, axe target-size).
        <button
          ref={renameButton}
          type="button"
          onClick={() => {
            setDraft(title);
            setEditing(true);
          }}
          className="inline-flex size-6 shrink-0 items-center justify-center rounded text-sm text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
        >
          <span aria-hidden="true">✎</span>
          <span className="sr-only">Rename session</span>
        </button>
      ) : null}
    </div>
  );
}

function emptyNameProblem(title: string): string {
  return `A session needs a name: type one, or press Escape to keep "${title}".`;
}
