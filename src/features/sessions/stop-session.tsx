import { type RefObject, useId, useRef, useState } from "react";
import { refusalText } from "../../api/refusal-words";
import { useStopSessionMutation } from "../../api/session-mutations";
import type { SessionRef } from "../../api/session-queries";
import { Button } from "../../components/button";
import { ModalDialog } from "../../components/modal-dialog";
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
  const close = () => setAsking(false);
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
        returnFocus={trigger}
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
  returnFocus,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  interrupts: string | undefined;
  returnFocus: RefObject<HTMLButtonElement | null>;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const keep = useRef<HTMLButtonElement>(null);
  return (
    <ModalDialog
      open={open}
      onClose={onCancel}
      title={STOP_COPY.title}
      width="sm"
      // The safe choice takes focus: Enter right after the click keeps the session.
      initialFocus={keep}
      returnFocus={returnFocus}
      description={
        <>
          <p>{interrupts}</p>
          <p className="text-slate-700 dark:text-slate-300">{STOP_COPY.consequence}</p>
        </>
      }
    >
      <div className="flex flex-wrap justify-end gap-2">
        <Button ref={keep} onClick={onCancel}>
          {STOP_COPY.keep}
        </Button>
        <Button tone="danger" onClick={onConfirm}>
          {STOP_COPY.confirm}
        </Button>
      </div>
    </ModalDialog>
  );
}
