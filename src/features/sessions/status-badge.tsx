import type { HTMLAttributes } from "react";
import type { SessionStatus } from "./session-sidebar-view";

const TONE_CLASSES: Record<SessionStatus["tone"], string> = {
  good: "border-emerald-600 text-emerald-800 dark:border-emerald-500 dark:text-emerald-300",
  busy: "border-cyan-600 text-cyan-800 dark:border-cyan-500 dark:text-cyan-300",
  warn: "border-amber-600 bg-amber-50 text-amber-900 dark:border-amber-500 dark:bg-amber-950 dark:text-amber-100",
  muted: "border-slate-400 text-slate-600 dark:border-slate-500 dark:text-slate-300",
};

/** A session's state as a small pill, in the same words and colours wherever it shows. */
export function StatusBadge({
  status,
  className = "",
  ...rest
}: { status: SessionStatus } & HTMLAttributes<HTMLSpanElement>) {
  return (
    <span
      {...rest}
      className={`shrink-0 rounded-full border px-1.5 leading-4 whitespace-nowrap ${TONE_CLASSES[status.tone]} ${className}`}
    >
      {status.text}
    </span>
  );
}
