import { useEffect, useId, useRef, useState } from "react";
import { fetchFile } from "../../api/http";
import type { SessionRef } from "../../api/session-queries";
import { Button } from "../../components/button";
import { Spinner } from "../../components/spinner";
import { EXPORT_FORMATS, type ExportFormat } from "../../contract/export";

const FORMAT_LABELS: Readonly<Record<ExportFormat, string>> = {
  md: "Markdown transcript",
  json: "JSON (the transcript)",
  jsonl: "JSONL (the ledger's rows)",
};

/**
 * Export, in the header: a disclosure listing the three formats (ADR 0240). Choosing one
 * downloads the daemon's file under the name it suggests; a daemon without the route
 * (CompozyOS through upstream mode) or a refusal is said inline, in its words.
 */
export function ExportSession({ session }: { session: SessionRef }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<ExportFormat | undefined>();
  const [error, setError] = useState<string | undefined>();
  const listId = useId();
  const trigger = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (event: PointerEvent) => {
      if (!box.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", away);
    return () => document.removeEventListener("pointerdown", away);
  }, [open]);
  const download = async (format: ExportFormat) => {
    setBusy(format);
    setError(undefined);
    try {
      const path = `/api/workspaces/${encodeURIComponent(session.workspaceId)}/sessions/${encodeURIComponent(session.sessionId)}/export`;
      const file = await fetchFile(path, { format });
      saveBlob(file.blob, file.fileName ?? `${session.sessionId}.${format}`);
      setOpen(false);
      trigger.current?.focus();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(undefined);
    }
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere in the menu closes it.
    <div
      ref={box}
      className="relative"
      onKeyDown={(event) => {
        if (event.key !== "Escape" || !open) return;
        event.stopPropagation();
        setOpen(false);
        trigger.current?.focus();
      }}
    >
      <Button
        ref={trigger}
        size="sm"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
      >
        Export <span aria-hidden="true">▾</span>
      </Button>
      {open ? (
        <div className="z-20 mt-1 w-60 sm:absolute sm:right-0 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
          <ul id={listId} aria-label="Export formats">
            {EXPORT_FORMATS.map((format) => (
              <li key={format}>
                <button
                  type="button"
                  aria-disabled={busy !== undefined || undefined}
                  onClick={() => busy === undefined && void download(format)}
                  className="flex min-h-8 w-full items-center gap-2 rounded px-2 text-left text-sm text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800"
                >
                  {busy === format ? <Spinner /> : null}
                  {FORMAT_LABELS[format]}
                </button>
              </li>
            ))}
          </ul>
          {error ? (
            <p role="alert" className="px-2 py-1 text-xs text-red-800 dark:text-red-300">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once started; the URL is not needed after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
