import { useRef, useState } from "react";
import { useLocation } from "wouter";
import { refusalText } from "../../api/refusal-words";
import { useArchiveSessionMutation, useDeleteSessionMutation } from "../../api/session-mutations";
import type { SessionRef } from "../../api/session-queries";
import { Button } from "../../components/button";
import { ModalDialog } from "../../components/modal-dialog";
import { Spinner } from "../../components/spinner";
import { isTurnRunning, type Session } from "../../contract/session";
import { archiveAction, DELETE_COPY } from "./session-actions-view";

/** Archive (or Unarchive) and Delete, in the session header. */
export function SessionActions({
  session,
  current,
}: {
  session: SessionRef;
  current: Session | undefined;
}) {
  const archive = useArchiveSessionMutation(session);
  const action = archiveAction(current);
  return (
    <>
      {action ? (
        <Button
          size="sm"
          aria-disabled={archive.isPending || undefined}
          onClick={() => {
            if (!archive.isPending) archive.mutate(action.archived);
          }}
        >
          {archive.isPending ? <Spinner /> : null}
          {action.label}
        </Button>
      ) : null}
      <DeleteSession session={session} running={current ? isTurnRunning(current) : false} />
      {archive.error ? (
        <p role="alert" className="w-full text-xs text-red-800 dark:text-red-300">
          {refusalText(archive.error)}
        </p>
      ) : null}
    </>
  );
}

function DeleteSession({ session, running }: { session: SessionRef; running: boolean }) {
  const remove = useDeleteSessionMutation(session);
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    remove.reset();
  };
  return (
    <>
      <Button
        ref={trigger}
        size="sm"
        tone="danger"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {DELETE_COPY.label}
      </Button>
      <ModalDialog
        open={open}
        onClose={close}
        title={DELETE_COPY.title}
        width="sm"
        // The safe choice takes focus once the dialog is up.
        initialFocus={keep}
        returnFocus={trigger}
        description={
          <>
            <p>{DELETE_COPY.consequence}</p>
            {running ? (
              <p className="text-slate-700 dark:text-slate-300">{DELETE_COPY.turnRunning}</p>
            ) : null}
          </>
        }
      >
        {remove.error ? (
          <div role="alert" className="space-y-1 text-sm text-red-800 dark:text-red-300">
            <p>{refusalText(remove.error)}</p>
            <p className="text-xs">
              {DELETE_COPY.daemonSaid} <q>{remove.error.message}</q>
            </p>
          </div>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button ref={keep} onClick={close}>
            {DELETE_COPY.keep}
          </Button>
          <Button
            tone="danger"
            aria-disabled={remove.isPending || undefined}
            onClick={() => {
              if (remove.isPending) return;
              remove.mutate(undefined, {
                onSuccess: () => {
                  setOpen(false);
                  navigate("/");
                },
              });
            }}
          >
            {remove.isPending ? <Spinner /> : null}
            {DELETE_COPY.confirm}
          </Button>
        </div>
      </ModalDialog>
    </>
  );
}
