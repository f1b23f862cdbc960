import { useId } from "react";
import { SafeMarkdown } from "../../components/safe-markdown";
import { useItemOpen, useTimelineActions } from "./timeline-store";

/** The agent's thinking, collapsed behind "Thinking" until asked for. */
export function ReasoningPart({ itemKey, text }: { itemKey: string; text: string }) {
  const open = useItemOpen(itemKey);
  const { openItem, closeItem } = useTimelineActions();
  const panelId = useId();
  return (
    <div className="text-slate-600 dark:text-slate-300">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => (open ? closeItem(itemKey) : openItem(itemKey))}
        className="inline-flex items-center gap-1 rounded text-xs font-medium italic hover:underline"
      >
        <span aria-hidden="true" className={open ? "rotate-90" : ""}>
          ▸
        </span>
        Thinking
      </button>
      {open ? (
        <div id={panelId} className="mt-1 border-l-2 border-slate-300 pl-3 dark:border-slate-600">
          <SafeMarkdown text={text} />
        </div>
      ) : null}
    </div>
  );
}
