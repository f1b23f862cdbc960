import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { useRenameSessionMutation, useStopSessionMutation } from "../../api/session-mutations";
import { type SessionRef, sessionQueries } from "../../api/session-queries";
import { Button } from "../../components/button";
import { Spinner } from "../../components/spinner";
import { sessionLabel } from "./session-sidebar-view";

/** The open session's name (Rename edits it in place) and Stop session while it runs. */
export function SessionHeader({ session }: { session: SessionRef }) {
  const detail = useQuery(sessionQueries.detail(session));
  const rename = useRenameSessionMutation(session);
  const stop = useStopSessionMutation(session);
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const inputId = useId();
  const current = detail.data;
  if (!current) return null;
  const problem = rename.error?.message ?? stop.error?.message;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = editing?.trim();
    if (!name || name === current.name) {
      setEditing(undefined);
      return;
    }
    rename.mutate(name, { onSuccess: () => setEditing(undefined) });
  };

  return (
    <header className="flex min-w-0 flex-wrap items-center gap-2 border-b border-slate-200 px-3 py-1.5 dark:border-slate-800">
      {editing === undefined ? (
        <>
          <h1 className="min-w-0 flex-1 truncate text-sm font-semibold">{sessionLabel(current)}</h1>
          <Button size="sm" tone="ghost" onClick={() => setEditing(current.name ?? "")}>
            Rename
          </Button>
        </>
      ) : (
        <form onSubmit={submit} className="flex min-w-0 flex-1 items-center gap-2">
          <label htmlFor={inputId} className="sr-only">
            Session name
          </label>
          <input
            id={inputId}
            value={editing}
            maxLength={200}
            onChange={(event) => setEditing(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Escape") setEditing(undefined);
            }}
            className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 py-0.5 text-sm dark:border-slate-600 dark:bg-slate-900"
          />
          <Button size="sm" type="submit" disabled={rename.isPending}>
            {rename.isPending ? <Spinner /> : null}
            Save
          </Button>
          <Button size="sm" tone="ghost" onClick={() => setEditing(undefined)}>
            Cancel
          </Button>
        </form>
      )}
      {current.state === "active" || current.state === "starting" ? (
        <Button size="sm" tone="danger" disabled={stop.isPending} onClick={() => stop.mutate()}>
          {stop.isPending ? <Spinner /> : null}
          Stop session
        </Button>
      ) : null}
      {problem ? (
        <p role="alert" className="w-full text-xs text-red-800 dark:text-red-300">
          {problem}
        </p>
      ) : null}
    </header>
  );
}
