import { type ReactNode, useId } from "react";
import { type DialogFocus, useModalDialog } from "./use-modal-dialog";

/** Widths; a narrow confirmation is also set a little tighter. */
const SIZES = {
  sm: { width: "w-[min(26rem,calc(100vw-2rem))]", gap: "space-y-3" },
  md: { width: "w-[min(28rem,calc(100vw-2rem))]", gap: "space-y-4" },
  lg: { width: "w-[min(32rem,calc(100vw-2rem))]", gap: "space-y-4" },
} as const;

/**
 * The page's modal dialog: a native `<dialog>` named by its heading and described by
 * `description` when there is one, Escape, the backdrop and focus handled by
 * `useModalDialog`; its content is mounted only while open.
 */
export function ModalDialog({
  open,
  onClose,
  title,
  description,
  width = "md",
  children,
  ...focus
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  /** What the dialog is about, read out with its name (a confirmation's consequences). */
  description?: ReactNode;
  width?: keyof typeof SIZES;
  children: ReactNode;
} & DialogFocus) {
  const { ref, dialogProps } = useModalDialog(open, onClose, focus);
  const titleId = useId();
  const descriptionId = useId();
  const size = SIZES[width];
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description === undefined ? undefined : descriptionId}
      {...dialogProps}
      className={`m-auto ${size.width} rounded-lg border border-slate-300 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100`}
    >
      {open ? (
        <div className={`${size.gap} p-4`}>
          <h2 id={titleId} className="text-base font-semibold">
            {title}
          </h2>
          {description === undefined ? null : (
            <div id={descriptionId} className="space-y-2 text-sm">
              {description}
            </div>
          )}
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
