import { useEffect, useId, useRef, useState } from "react";
import { refusalText } from "../../api/refusal-words";
import { useStopSessionMutation } from "../../api/session-mutations";
import type { SessionRef } from "../../api/session-queries";
import { Button } from "../../components/button";
import { Spinner } from "../../components/spinner";
import type { SessionPhase } from "../../lib/session-phase";
import { STOP_COPY, stopWouldInterrupt } from "./stop-session-view";

/**
 * Stop session, in the header. With a turn, a compaction or an approval open it asks first
 * in a modal dialog (focus on "Keep it running", Escape keeps it running, focus returns to
 * the button); otherwise it stops at once. Offline it stays visible but waits, and says why.
 */
export function StopSession({
  session,
  phase,
  approvals,
}: {
  session: SessionRef;
  phase: SessionPhase;
  approvals: number;
}) {
  const stop = useStopSessionMutation(session);
  const [asking, setAsking] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const reasonId = useId();
  const offline = phase === "offline";
  const interrupts = stopWouldInterrupt(phase, approvals);
  const unavailable = offline || stop.isPending;
  const press = () => {
    if (unavailable) return;
    if (interrupts) setAsking(true);
    else stop.mutate();
  };
  const close = () => {
    setAsking(false);
    trigger.current?.focus();
  };
  return (
    <>
      <Button
        ref={trigger}
        size="sm"
        tone="danger"
        aria-disabled={unavailable || undefined}
        aria-haspopup={interrupts ? "dialog" : undefined}
        aria-describedby={offline ? reasonId : undefined}
        onClick={press}
      >
        {stop.isPending ? <Spinner /> : null}
        {STOP_COPY.label}
      </Button>
      {offline ? (
        <span id={reasonId} className="text-xs text-slate-600 dark:text-slate-300">
          {STOP_COPY.offline}
        </span>
      ) : null}
      <StopConfirmDialog
        open={asking && interrupts !== undefined}
        interrupts={interrupts}
        onCancel={close}
        onConfirm={() => {
          close();
          stop.mutate();
        }}
      />
      {stop.error ? (
        <p role="alert" className="w-full text-xs text-red-800 dark:text-red-300">
          {refusalText(stop.error)}
        </p>
      ) : null}
    </>
  );
}

function StopConfirmDialog({
  open,
  interrupts,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  interrupts: string | undefined;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const textId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      // jsdom has no showModal: the dialog is then simply open (not modal).
      if (typeof element.showModal === "function") element.showModal();
      else element.setAttribute("open", "");
      // The safe choice takes focus: Enter right after the click keeps the session.
      keep.current?.focus();
    } else if (!open && element.open) {
      if (typeof element.close === "function") element.close();
      else element.removeAttribute("open");
    }
  }, [open]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      className="m-auto w-[min(26rem,calc(100vw-2rem))] rounded-lg border border-slate-300 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
    >
      {open ? (
        <div className="space-y-3 p-4">
          <h2 id={titleId} className="text-base font-semibold">
            {STOP_COPY.title}
          </h2>
          <div id={textId} className="space-y-2 text-sm">
            <p>{interrupts}</p>
            <p className="text-slate-700 dark:text-slate-300">{STOP_COPY.consequence}</p>
          </div>
          <div className="flex flex-wrap justify-end gap-2">
            <Button ref={keep} onClick={onCancel}>
              {STOP_COPY.keep}
            </Button>
            <Button tone="danger" onClick={onConfirm}>
              {STOP_COPY.confirm}
            </Button>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
