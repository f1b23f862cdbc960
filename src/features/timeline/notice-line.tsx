import { noticeView } from "./notice-view";
import { NOTICE_BOX, NOTICE_LABEL, NOTICE_TONE } from "./row-looks";

/** An adapter's notice: its severity, title and the text that says what happened. */
export function NoticeLine({ data }: { data: Record<string, unknown> }) {
  const view = noticeView(data);
  return (
    <div className={`${NOTICE_BOX} ${NOTICE_TONE[view.tone]}`}>
      <p className="break-words">
        <span className={`font-semibold ${NOTICE_LABEL[view.tone]}`}>{view.label}</span>
        {view.title ? <span>: {view.title}</span> : null}
      </p>
      {view.description ? (
        <p className="break-words whitespace-pre-wrap">{view.description}</p>
      ) : null}
    </div>
  );
}
