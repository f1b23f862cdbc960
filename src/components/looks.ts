// Class names and small readings shared by the SPA's components and the daemon's first screen
// of a session link (src/first-screen), which must look like what replaces it.

/** A small action beside a speaker or a code block (Copy). */
export const ROW_ACTION =
  "inline-flex min-h-6 items-center rounded px-1.5 text-[11px] font-medium text-slate-700 hover:bg-slate-200 hover:text-slate-950 dark:text-slate-300 dark:hover:bg-slate-700 dark:hover:text-white";

/** A link in agent Markdown. */
export const LINK =
  "text-cyan-800 underline underline-offset-2 hover:text-cyan-950 dark:text-cyan-300 dark:hover:text-cyan-100";

/** The line above a code block (its language, Copy), and the language in it. */
export const CODE_HEAD = "flex items-center justify-between gap-2 px-1 pb-0.5";
export const CODE_LANGUAGE = "font-mono text-[11px] text-slate-600 dark:text-slate-300";

/** The language a fenced block names (`language-ts` → `ts`), lower-cased. */
export function fenceLanguage(className: unknown): string | undefined {
  const names = Array.isArray(className) ? className : [];
  const name = names.find((n): n is string => typeof n === "string" && n.startsWith("language-"));
  return name?.slice("language-".length).toLowerCase() || undefined;
}

/** What an image in agent Markdown becomes: a link (or text) labelled with its alt text. */
export function imageLabel(alt: string | null | undefined): string {
  return `Image: ${alt?.trim() || "untitled"}`;
}
