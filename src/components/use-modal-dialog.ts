// A native <dialog> shown as a modal while `open` is true: the platform gives focus
// trapping, Escape and the backdrop; this keeps the element in step with React's state and
// turns Escape into the caller's `onClose` (so state, not the browser, decides).
import { type SyntheticEvent, useEffect, useRef } from "react";

export function useModalDialog(open: boolean, onClose: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (open && !element.open) {
      // jsdom has no showModal: the dialog is then simply open (not modal).
      if (typeof element.showModal === "function") element.showModal();
      else element.setAttribute("open", "");
    } else if (!open && element.open) {
      if (typeof element.close === "function") element.close();
      else element.removeAttribute("open");
    }
  }, [open]);
  const dialogProps = {
    onClose,
    onCancel: (event: SyntheticEvent<HTMLDialogElement>) => {
      event.preventDefault();
      onClose();
    },
  };
  return { ref, dialogProps };
}
