import type { ReactNode } from "react";
import { Button } from "../components/button";
import { useModalDialog } from "../components/use-modal-dialog";

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
  const { ref: dialog, dialogProps } = useModalDialog(open, onClose);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop click is a mouse shortcut; Escape and Close do the same by keyboard.
    <dialog
      ref={dialog}
      aria-label="Context"
      {...dialogProps}
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
