// The Markdown renderer for untrusted text (agent output, compaction summaries). Loaded
// lazily by `SafeMarkdown`. Raw HTML is dropped (no rehype-raw, `skipHtml`), links are
// limited to http/https/mailto and open in a new tab without an opener, and images are
// never fetched: each becomes a link labelled with its alt text. Fenced code blocks get a
// Copy button and syntax highlighting (ADR 0213).
import type { ReactElement, ReactNode } from "react";
import Markdown, { type Components } from "react-markdown";
import { afterFirstPaint } from "../lib/lazy-after-paint";
import { CodeBlock, preloadHighlighter } from "./code-block";
import { fenceLanguage, imageLabel, LINK } from "./looks";
import { REMARK_PLUGINS } from "./markdown-plugins";
import { safeUrl } from "./safe-url";

afterFirstPaint(() => void preloadHighlighter());

type HastNode = {
  type: string;
  value?: string;
  tagName?: string;
  properties?: { className?: unknown };
  children?: HastNode[];
};

function textOf(node: HastNode): string {
  if (node.type === "text") return node.value ?? "";
  return (node.children ?? []).map(textOf).join("");
}

/** A fenced block (`<pre><code>`) as a CodeBlock; anything else stays a plain `<pre>`. */
function Pre({ node, children }: { node?: HastNode | undefined; children?: ReactNode }) {
  const code = node?.children?.find((child) => child.tagName === "code");
  if (code) {
    // The fence's closing newline is not part of the code (nor of what Copy copies).
    const text = textOf(code).replace(/\n$/, "");
    return <CodeBlock text={text} language={fenceLanguage(code.properties?.className)} />;
  }
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a horizontally scrolling code block must take keyboard focus to be scrolled.
    <pre tabIndex={0} className="tl-code-block">
      {children}
    </pre>
  );
}

const components: Components = {
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer" className={LINK}>
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  img: ({ src, alt }) => {
    const label = imageLabel(alt);
    const href = typeof src === "string" ? safeUrl(src) : "";
    return href ? (
      <a href={href} target="_blank" rel="noopener noreferrer" className={LINK}>
        {label}
      </a>
    ) : (
      <span>[{label}]</span>
    );
  },
  // A box that scrolls sideways must be reachable by keyboard, or its overflow is unreadable
  // without a mouse (WCAG 2.1.1; axe `scrollable-region-focusable`).
  pre: ({ node, children }) => <Pre node={node as HastNode | undefined}>{children}</Pre>,
  table: ({ children }) => (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a wide table scrolls sideways and must take keyboard focus to be scrolled.
    <div tabIndex={0} className="overflow-x-auto">
      <table>{children}</table>
    </div>
  ),
};

// Parsing is the cost of a row coming into the virtual window; a row scrolled back into
// view reuses its rendered tree (React elements are immutable, so sharing them is safe).
const CACHE_LIMIT = 400;
const rendered = new Map<string, ReactElement>();

function renderMarkdown(text: string): ReactElement {
  const cached = rendered.get(text);
  if (cached) {
    rendered.delete(text);
    rendered.set(text, cached);
    return cached;
  }
  // `Markdown` is a plain synchronous function (no hooks): calling it parses once, here.
  const tree = Markdown({
    children: text,
    remarkPlugins: REMARK_PLUGINS,
    skipHtml: true,
    urlTransform: safeUrl,
    components,
  });
  rendered.set(text, tree);
  if (rendered.size > CACHE_LIMIT) {
    const oldest = rendered.keys().next().value;
    if (oldest !== undefined) rendered.delete(oldest);
  }
  return tree;
}

export default function MarkdownRenderer({ text }: { text: string }) {
  return <div className="tl-markdown">{renderMarkdown(text)}</div>;
}
