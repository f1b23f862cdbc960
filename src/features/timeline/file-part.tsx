import { safeUrl } from "../../components/safe-url";
import type { FilePart as FilePartData } from "../../contract/transcript";
import { fileLabel } from "./file-view";

/**
 * A file the user attached: name and media type. Only an http(s) address becomes a link;
 * CompozyOS's `attachment://…` ids (and `data:`, `javascript:`) stay plain text.
 */
export function FilePart({ part }: { part: FilePartData }) {
  const href = safeUrl(part.url);
  const label = fileLabel(part);
  return (
    <p className="inline-flex max-w-full items-center gap-1.5 rounded border border-slate-200 px-2 py-0.5 text-xs text-slate-700 dark:border-slate-700 dark:text-slate-200">
      <PaperclipIcon />
      {href ? (
        <a href={href} target="_blank" rel="noreferrer noopener" className="truncate underline">
          {label}
        </a>
      ) : (
        <span className="truncate">{label}</span>
      )}
      {part.mediaType ? (
        <span className="shrink-0 font-mono text-slate-600 dark:text-slate-400">
          {part.mediaType}
        </span>
      ) : null}
    </p>
  );
}

/** Drawn, not an emoji: many system fonts have no glyph for U+1F4CE. */
function PaperclipIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 16 16"
      className="h-3.5 w-3.5 shrink-0"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
    >
      <path d="M10.5 4.5 5.2 9.8a1.5 1.5 0 0 0 2.1 2.1l5.6-5.6a3 3 0 0 0-4.2-4.2L3.1 7.7a4.5 4.5 0 0 0 6.4 6.4l4.2-4.2" />
    </svg>
  );
}
