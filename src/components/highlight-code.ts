// Syntax highlighting for code blocks (ADR 0213): highlight.js grammars run by lowlight,
// which returns a tree, not HTML, so agent output is turned into React elements here and
// never into markup. This module is a chunk of its own, loaded after the first paint.
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import { createLowlight } from "lowlight";
import { createElement, type ReactNode } from "react";

const lowlight = createLowlight({
  bash,
  css,
  diff,
  go,
  javascript,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
});
lowlight.registerAlias({
  bash: ["sh", "zsh"],
  javascript: ["js", "jsx", "mjs", "cjs"],
  markdown: ["md"],
  python: ["py"],
  rust: ["rs"],
  shell: ["console", "shell-session"],
  typescript: ["ts", "tsx", "mts", "cts"],
  xml: ["html", "svg"],
  yaml: ["yml"],
});

/** Past this a block is shown plain: highlighting it would be one long main-thread task. */
export const MAX_HIGHLIGHT_CHARS = 20_000;

type Node =
  | { type: "text"; value: string }
  | { type: "element"; properties?: { className?: unknown }; children: Node[] }
  | { type: string };

function toReact(node: Node, key: number): ReactNode {
  if (node.type === "text" && "value" in node) return node.value;
  if (node.type !== "element" || !("children" in node)) return null;
  const names = node.properties?.className;
  const className = Array.isArray(names)
    ? names.filter((n) => typeof n === "string").join(" ")
    : "";
  return createElement("span", { key, className }, node.children.map(toReact));
}

// A row scrolled back into the virtual window mounts its blocks again: their tokens are kept
// (React elements are immutable, so sharing them is safe), as the Markdown renderer keeps trees.
const CACHE_LIMIT = 400;
const highlighted = new Map<string, ReactNode>();

/** The block's tokens as spans with highlight.js class names, or undefined to show it plain. */
export function highlightCode(text: string, language: string | undefined): ReactNode | undefined {
  if (!language || text.length > MAX_HIGHLIGHT_CHARS || !lowlight.registered(language)) {
    return undefined;
  }
  const key = `${language}\u0000${text}`;
  const cached = highlighted.get(key);
  if (cached !== undefined) {
    highlighted.delete(key);
    highlighted.set(key, cached);
    return cached;
  }
  const tokens = (lowlight.highlight(language, text).children as Node[]).map(toReact);
  highlighted.set(key, tokens);
  if (highlighted.size > CACHE_LIMIT) {
    const oldest = highlighted.keys().next().value;
    if (oldest !== undefined) highlighted.delete(oldest);
  }
  return tokens;
}
