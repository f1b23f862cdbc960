import { useId } from "react";
import { Spinner } from "../../components/spinner";
import { useItemOpen, useTimelineActions } from "./timeline-store";
import { type AnyToolPart, toolKind, toolPayloadText, toolState, toolTitle } from "./tool-view";

const STATE_CLASSES = {
  running: "text-cyan-800 dark:text-cyan-300",
  done: "text-emerald-800 dark:text-emerald-300",
  failed: "text-red-800 dark:text-red-300",
} as const;

/** One compact tool row (title, kind, state); expands to show input and output. */
export function ToolPart({ itemKey, part }: { itemKey: string; part: AnyToolPart }) {
  const open = useItemOpen(itemKey);
  const { openItem, closeItem } = useTimelineActions();
  const panelId = useId();
  const state = toolState(part);
  return (
    <div className="rounded-md border border-slate-200 text-sm dark:border-slate-700">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => (open ? closeItem(itemKey) : openItem(itemKey))}
        className="flex w-full min-w-0 items-center gap-2 rounded-md px-2 py-1 text-left hover:bg-slate-50 dark:hover:bg-slate-900"
      >
        <span aria-hidden="true" className={open ? "rotate-90" : ""}>
          ▸
        </span>
        <span className="min-w-[30%] flex-1 truncate font-medium">{toolTitle(part)}</span>
        {/* A dynamic tool's name can be long (MCP names): it gives way before the title does. */}
        <span className="max-w-[40%] min-w-0 truncate rounded bg-slate-100 px-1.5 font-mono text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          {toolKind(part)}
        </span>
        <span
          className={`inline-flex shrink-0 items-center gap-1 text-xs font-medium ${STATE_CLASSES[state.tone]}`}
        >
          {state.tone === "running" ? (
            <Spinner />
          ) : (
            <span aria-hidden="true">{state.tone === "done" ? "✓" : "✕"}</span>
          )}
          {state.label}
        </span>
      </button>
      {open ? (
        <div id={panelId} className="space-y-2 border-t border-slate-200 p-2 dark:border-slate-700">
          <ToolPayload label="Input" value={part.input} />
          <ToolPayload label="Output" value={part.output} />
          {part.errorText ? (
            <p className="text-xs text-red-800 dark:text-red-300">Error: {part.errorText}</p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function ToolPayload({ label, value }: { label: string; value: unknown }) {
  if (value === undefined) return null;
  return (
    <div>
      <p className="text-xs font-medium text-slate-600 dark:text-slate-300">{label}</p>
      <pre className="mt-0.5 max-h-80 overflow-auto rounded bg-slate-100 p-2 font-mono text-xs dark:bg-slate-900">
        {toolPayloadText(value)}
      </pre>
    </div>
  );
}
