import { useId, useMemo } from "react";
import { SafeMarkdown } from "../../components/safe-markdown";
import { foldText, hiddenLabel } from "./fold-text";
import { SHOW_MORE, SHOW_MORE_COUNT } from "./row-looks";
import { useItemOpen, useTimelineActions } from "./timeline-store";

/**
 * An agent's reply, folded behind "Show more" when it is long (ADR 0137). Open or not is
 * kept in the timeline store, so a row scrolled out of the virtual window and back stays as
 * it was; the list re-measures the row when its height changes.
 */
export function FoldedReply({ itemKey, text }: { itemKey: string; text: string }) {
  const fold = useMemo(() => foldText(text), [text]);
  const key = `${itemKey}:more`;
  const open = useItemOpen(key);
  const { openItem, closeItem, revealRequested } = useTimelineActions();
  const bodyId = useId();
  const toggleId = useId();
  if (!fold.folded) return <SafeMarkdown text={text} />;
  const more = hiddenLabel(fold);
  return (
    <div>
      <div id={bodyId}>
        <SafeMarkdown text={open ? text : fold.head} />
      </div>
      <button
        id={toggleId}
        type="button"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => {
          if (!open) return openItem(key);
          closeItem(key);
          // The reply shrinks above the button: keep the button (and the reader) in view.
          revealRequested(toggleId);
        }}
        className={SHOW_MORE}
      >
        {open ? "Show less" : "Show more"}
        {open ? null : (
          <>
            {" "}
            <span className={SHOW_MORE_COUNT}>({more})</span>
          </>
        )}
      </button>
    </div>
  );
}
