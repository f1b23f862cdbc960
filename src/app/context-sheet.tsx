import { type ReactNode, useEffect, useRef } from "react";
import { Button } from "../components/button";

/**
 * The context rail as a sheet on narrow screens: a modal <dialog> (focus moves in, Escape
 * and the Close button leave, focus returns to the opener). Its content stays mounted
 * while closed, so a Compact now refusal is still there when the sheet opens again.
 */
export function ContextSheet({
  open,
  onClose,
  children,
}: {
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      // jsdom has no showModal; a real browser always does.
      if (typeof element.showModal === "function") element.showModal();
      else element.setAttribute("open", "");
    } else if (!open && element.open) {
      if (typeof element.close === "function") element.close();
      else element.removeAttribute("open");
    }
  }, [open]);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop click is a mouse shortcut; Escape and Close do the same by keyboard.
    <dialog
      ref={dialog}
      aria-label="Context"
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      // Clicking the backdrop (the dialog element itself, outside its box) closes it.
      onClick={(event) => {
        if (event.target === dialog.current) onClose();
      }}
      className="mt-auto mb-0 max-h-[85dvh] w-full max-w-none overflow-y-auto rounded-t-xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:bg-slate-950 dark:text-slate-100"
    >
      <div className="sticky top-0 z-10 flex items-center justify-between border-b border-slate-200 bg-white px-4 py-2 dark:border-slate-800 dark:bg-slate-950">
        <p className="text-sm font-semibold">Context</p>
        <Button size="sm" onClick={onClose}>
          Close
        </Button>
      </div>
      {children}
    </dialog>
  );
}
