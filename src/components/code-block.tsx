import { Suspense, use } from "react";
import { once } from "../lib/lazy-after-paint";
import { CopyButton } from "./copy-button";
import { CODE_HEAD, CODE_LANGUAGE } from "./looks";

/** The highlighter chunk, fetched once (and again until it arrives). */
const loadHighlighter = once(() => import("./highlight-code"));

function HighlightedCode({ text, language }: { text: string; language: string | undefined }) {
  const { highlightCode } = use(loadHighlighter());
  return highlightCode(text, language) ?? text;
}

/**
 * A fenced code block: its language and Copy above it, then the code, plain until the
 * highlighter has loaded (ADR 0213). It scrolls sideways, so it takes keyboard focus.
 */
export function CodeBlock({ text, language }: { text: string; language: string | undefined }) {
  return (
    <div className="tl-code">
      <div className={CODE_HEAD}>
        <span className={CODE_LANGUAGE}>{language ?? ""}</span>
        <CopyButton text={text} what="code" />
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a horizontally scrolling code block must take keyboard focus to be scrolled. */}
      <pre tabIndex={0} className="tl-code-block">
        <code>
          <Suspense fallback={text}>
            <HighlightedCode text={text} language={language} />
          </Suspense>
        </code>
      </pre>
    </div>
  );
}

/** Starts fetching the highlighter (after the first paint, from the Markdown renderer). */
export const preloadHighlighter = loadHighlighter;
