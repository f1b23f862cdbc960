import { type ReactNode, useId } from "react";
import { useModalDialog } from "./use-modal-dialog";

const WIDTHS = {
  md: "w-[min(28rem,calc(100vw-2rem))]",
  lg: "w-[min(32rem,calc(100vw-2rem))]",
} as const;

/**
 * The page's modal dialog: a native `<dialog>` named by its heading, Escape and the
 * backdrop handled by the platform (`useModalDialog`); its content is mounted only while open.
 */
export function ModalDialog({
  open,
  onClose,
  title,
  width = "md",
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  width?: keyof typeof WIDTHS;
  children: ReactNode;
}) {
  const { ref, dialogProps } = useModalDialog(open, onClose);
  const titleId = useId();
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      {...dialogProps}
      className={`m-auto ${WIDTHS[width]} rounded-lg border border-slate-300 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100`}
    >
      {open ? (
        <div className="space-y-4 p-4">
          <h2 id={titleId} className="text-base font-semibold">
            {title}
          </h2>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
