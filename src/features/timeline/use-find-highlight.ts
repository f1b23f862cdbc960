// Keeps the find highlights on the rows the virtualizer renders: rows come and go as the
// list scrolls, so the marks are painted again (once a frame at most) whenever they change.
import { type RefObject, useEffect } from "react";
import { searchWords } from "../../contract/search";
import { clearFindHighlights, paintFindHighlights } from "./find-highlight";
import { useFindCurrentId, useFindOpen, useFindText } from "./find-store";

export function useFindHighlight(scrollRef: RefObject<HTMLElement | null>): void {
  const open = useFindOpen();
  const text = useFindText();
  const currentId = useFindCurrentId();
  useEffect(() => {
    const scroller = scrollRef.current;
    const words = searchWords(text);
    if (!open || scroller === null || words.length === 0) {
      clearFindHighlights();
      return;
    }
    let frame = 0;
    const paint = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => paintFindHighlights(scroller, words, currentId));
    };
    paint();
    const observer = new MutationObserver(paint);
    observer.observe(scroller, { childList: true, subtree: true, characterData: true });
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
      clearFindHighlights();
    };
  }, [open, text, currentId, scrollRef]);
}
