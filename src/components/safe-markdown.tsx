import { lazy, Suspense } from "react";

// The Markdown stack is most of the app's weight; it loads after the first paint.
const MarkdownRenderer = lazy(() => import("./markdown-renderer"));

/** Untrusted Markdown, shown as plain text until the renderer has loaded. */
export function SafeMarkdown({ text }: { text: string }) {
  return (
    <Suspense fallback={<div className="break-words whitespace-pre-wrap">{text}</div>}>
      <MarkdownRenderer text={text} />
    </Suspense>
  );
}
