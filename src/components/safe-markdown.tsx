import { lazy, Suspense, useDeferredValue } from "react";
import { once } from "../lib/lazy-after-paint";

// The Markdown stack is most of the app's weight: it is a separate chunk, kept out of the
// initial JS, but requested as soon as this module runs so it is usually there by the time
// the first transcript arrives.
const loadRenderer = once(() => import("./markdown-renderer"));
const MarkdownRenderer = lazy(loadRenderer);
if (typeof window !== "undefined") void loadRenderer();

/** Untrusted Markdown, shown as plain text until the renderer has loaded. */
export function SafeMarkdown({ text }: { text: string }) {
  // A streamed reply changes many times a second. On React the new text is parsed in the
  // background; on Preact this is the text itself (ADR 0215), and the stream's frame
  // batching bounds how often it is parsed.
  const shown = useDeferredValue(text);
  return (
    <Suspense fallback={<div className="break-words whitespace-pre-wrap">{shown}</div>}>
      <MarkdownRenderer text={shown} />
    </Suspense>
  );
}
