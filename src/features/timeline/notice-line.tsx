import { type NoticeTone, noticeView } from "./notice-view";

const TONE_CLASSES: Record<NoticeTone, string> = {
  error: "border-red-600 dark:border-red-400",
  warning: "border-amber-500 dark:border-amber-400",
  info: "border-slate-400 dark:border-slate-500",
};

const LABEL_CLASSES: Record<NoticeTone, string> = {
  error: "text-red-800 dark:text-red-300",
  warning: "text-amber-900 dark:text-amber-200",
  info: "text-slate-700 dark:text-slate-300",
};

/** An adapter's notice: its severity, title and the text that says what happened. */
export function NoticeLine({ data }: { data: Record<string, unknown> }) {
  const view = noticeView(data);
  return (
    <div
      className={`min-w-0 border-l-2 py-0.5 pl-2 text-xs text-slate-700 dark:text-slate-300 ${TONE_CLASSES[view.tone]}`}
    >
      <p className="break-words">
        <span className={`font-semibold ${LABEL_CLASSES[view.tone]}`}>{view.label}</span>
        {view.title ? <span>: {view.title}</span> : null}
      </p>
      {view.description ? (
        <p className="break-words whitespace-pre-wrap">{view.description}</p>
      ) : null}
    </div>
  );
}
