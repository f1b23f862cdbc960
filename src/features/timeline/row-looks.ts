// The class names of the timeline's rows, named once: the SPA's components use them, and so
// does the daemon's first screen of a session link (src/first-screen), which must look
// like the rows that replace it.

import type { NoticeTone } from "./notice-view";

/** "You" / "Agent" above a message. */
export const SPEAKER_LABEL = "text-xs font-semibold text-slate-600 dark:text-slate-300";

/** The person's own message sits in a bubble; the agent's does not. */
export const USER_BUBBLE = "rounded-lg bg-slate-100 px-3 py-2 dark:bg-slate-800/70";

/** A one-line event ("Session stopped — …"). */
export const EVENT_LINE = "text-xs text-slate-600 dark:text-slate-400";

/** A tool call's box, and its title, the name of its kind and its status inside it. */
export const TOOL_BOX = "rounded-md border border-slate-200 text-sm dark:border-slate-700";
export const TOOL_TITLE = "min-w-[30%] flex-1 truncate font-medium";
export const TOOL_STATUS = "inline-flex shrink-0 items-center gap-1 text-xs font-medium";
export const TOOL_KIND =
  "max-w-[40%] min-w-0 truncate rounded bg-slate-100 px-1.5 font-mono text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-200";
export const TOOL_STATE = {
  running: "text-cyan-800 dark:text-cyan-300",
  done: "text-emerald-800 dark:text-emerald-300",
  failed: "text-red-800 dark:text-red-300",
} as const;

export const DISCLOSURE = {
  /** The compaction row's disclosures (Summary, What the summary kept, Compare). */
  row: "inline-flex min-h-6 items-center gap-1 rounded text-xs font-medium text-slate-700 underline-offset-2 hover:underline dark:text-slate-200",
  /** A quieter one inside a message (Thinking). */
  muted: "inline-flex items-center gap-1 rounded text-xs font-medium italic hover:underline",
  /** A link-coloured one (what a continued session carried). */
  link: "inline-flex items-center gap-1 rounded text-xs font-medium text-cyan-800 hover:underline dark:text-cyan-300",
  /** A whole-width header (a tool call's row); its content lays itself out. */
  block:
    "flex w-full min-w-0 items-center gap-2 rounded-md px-2 py-1 text-left hover:bg-slate-50 dark:hover:bg-slate-900",
} as const;

export const COMPACTION_TONE = {
  progress:
    "border-cyan-300 bg-cyan-50 text-cyan-950 dark:border-cyan-800 dark:bg-cyan-950/50 dark:text-cyan-50",
  success:
    "border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950/50 dark:text-emerald-50",
  danger:
    "border-red-400 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950/60 dark:text-red-50",
  neutral:
    "border-slate-300 bg-slate-50 text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100",
} as const;

export const COMPACTION_ICON = {
  progress: "",
  success: "✓",
  danger: "✕",
  neutral: "•",
} as const;

/** An adapter's notice: a bar in its severity's colour, its label in the same. */
export const NOTICE_BOX =
  "min-w-0 border-l-2 py-0.5 pl-2 text-xs text-slate-700 dark:text-slate-300";
export const NOTICE_TONE = {
  error: "border-red-600 dark:border-red-400",
  warning: "border-amber-500 dark:border-amber-400",
  info: "border-slate-400 dark:border-slate-500",
} as const satisfies Record<NoticeTone, string>;
export const NOTICE_LABEL = {
  error: "text-red-800 dark:text-red-300",
  warning: "text-amber-900 dark:text-amber-200",
  info: "text-slate-700 dark:text-slate-300",
} as const satisfies Record<NoticeTone, string>;

/** "Show more" under a folded reply. */
export const SHOW_MORE =
  "mt-1 inline-flex items-center gap-1 rounded text-xs font-medium text-cyan-800 hover:underline dark:text-cyan-300";
export const SHOW_MORE_COUNT = "font-normal text-slate-600 dark:text-slate-400";

/** Above the message box of a stopped session. */
export const STOPPED_NOTE = "This session is stopped. Sending a message resumes it.";
