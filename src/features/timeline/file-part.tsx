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
      <span aria-hidden="true">📎</span>
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
