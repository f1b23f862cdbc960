// A native <dialog> shown as a modal while `open` is true: the platform gives focus
// trapping, Escape and the backdrop; this keeps the element in step with React's state,
// turns Escape into the caller's `onClose` (so state, not the browser, decides), and moves
// focus: in to `initialFocus` (else the platform's first focusable) when it opens, and back
// to `returnFocus` (else whatever had focus before) when it closes. The one place the
// page's dialogs do this (jsdom has no showModal, so the focus moves are done here too).
import { type RefObject, type SyntheticEvent, useEffect, useRef } from "react";

export type DialogFocus = {
  /** Takes focus when the dialog opens: a confirmation's safe choice. */
  initialFocus?: RefObject<HTMLElement | null> | undefined;
  /** Gets focus back when it closes: the button that opened it. */
  returnFocus?: RefObject<HTMLElement | null> | undefined;
};

function show(element: HTMLDialogElement) {
  // jsdom has no showModal: the dialog is then simply open (not modal).
  if (typeof element.showModal === "function") element.showModal();
  else element.setAttribute("open", "");
}

function hide(element: HTMLDialogElement) {
  if (typeof element.close === "function") element.close();
  else element.removeAttribute("open");
}

export function useModalDialog(open: boolean, onClose: () => void, focus: DialogFocus = {}) {
  const ref = useRef<HTMLDialogElement>(null);
  const { initialFocus, returnFocus } = focus;
  const focusedBefore = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (open && !element.open) {
      const active = element.ownerDocument.activeElement;
      focusedBefore.current = active instanceof HTMLElement ? active : null;
      show(element);
      initialFocus?.current?.focus();
    } else if (!open && element.open) {
      hide(element);
      const back = returnFocus?.current ?? focusedBefore.current;
      focusedBefore.current = null;
      if (back?.isConnected) back.focus();
    }
  }, [open, initialFocus, returnFocus]);
  const dialogProps = {
    onClose,
    onCancel: (event: SyntheticEvent<HTMLDialogElement>) => {
      event.preventDefault();
      onClose();
    },
  };
  return { ref, dialogProps };
}
