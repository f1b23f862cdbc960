import { useId } from "react";
import { Spinner } from "../../components/spinner";
import { useItemOpen, useTimelineActions } from "./timeline-store";
import { ToolOutput } from "./tool-output";
import { toolOutputView } from "./tool-output-view";
import { type AnyToolPart, toolKind, toolState, toolTitle } from "./tool-view";

const STATE_CLASSES = {
  running: "text-cyan-800 dark:text-cyan-300",
  done: "text-emerald-800 dark:text-emerald-300",
  failed: "text-red-800 dark:text-red-300",
} as const;

/** One compact tool row (title, kind, state); expands to show what it did (command, diffs, output; raw behind a toggle). */
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
          <ToolOutput view={toolOutputView(part)} />
        </div>
      ) : null}
    </div>
  );
}
