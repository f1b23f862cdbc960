import type { ComponentProps } from "react";

export type ButtonTone = "primary" | "secondary" | "danger" | "ghost";

const TONES: Record<ButtonTone, string> = {
  primary:
    "bg-cyan-700 text-white hover:bg-cyan-800 disabled:bg-slate-400 aria-disabled:bg-slate-400 dark:bg-cyan-600 dark:text-slate-950 dark:hover:bg-cyan-500 dark:disabled:bg-slate-600 dark:aria-disabled:bg-slate-600",
  secondary:
    "border border-slate-300 bg-white text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800",
  danger:
    "border border-red-300 bg-white text-red-800 hover:bg-red-50 dark:border-red-700 dark:bg-slate-900 dark:text-red-200 dark:hover:bg-red-950",
  ghost: "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800",
};

const SIZES = { sm: "px-2 py-0.5 text-xs", md: "px-3 py-1.5 text-sm" } as const;

/**
 * The one button look; everything else about it is a plain `<button>`. `aria-disabled`
 * looks like `disabled`, for a button that must keep keyboard focus while unavailable.
 */
export function Button({
  tone = "secondary",
  size = "md",
  className = "",
  type = "button",
  ...props
}: ComponentProps<"button"> & { tone?: ButtonTone; size?: keyof typeof SIZES }) {
  return (
    <button
      type={type}
      className={`inline-flex items-center justify-center gap-1.5 rounded-md font-medium disabled:cursor-not-allowed disabled:opacity-70 aria-disabled:cursor-not-allowed aria-disabled:opacity-70 ${SIZES[size]} ${TONES[tone]} ${className}`}
      {...props}
    />
  );
}
