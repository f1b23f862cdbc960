// Agent Markdown as the SPA's renderer draws it, but as a tree the daemon can write into a
// page: the same parser, GFM and heading levels, raw HTML dropped, and each element the
// renderer replaces (links, images, code blocks, tables) replaced the same way. Nothing in
// it can be focused or followed: the first screen is a picture of the rows, hidden from
// assistive technology, and the SPA's rows take its place (ADR 0217).
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import {
  CODE_HEAD,
  CODE_LANGUAGE,
  fenceLanguage,
  imageLabel,
  LINK,
  ROW_ACTION,
} from "../components/looks";
import { REMARK_PLUGINS } from "../components/markdown-plugins";
import { safeUrl } from "../components/safe-url";
import { el, type HastChild, type HastElement, text } from "./hast";

const processor = unified().use(remarkParse).use(REMARK_PLUGINS).use(remarkRehype);

/** The only properties kept from the parsed tree: a task list's checkbox and its classes. */
const KEPT = new Set(["className", "type", "checked", "disabled"]);

function textOf(node: HastChild): string {
  if (node.type === "text") return node.value;
  return node.type === "element" ? node.children.map(textOf).join("") : "";
}

function codeBlock(code: HastElement): HastElement {
  const language = fenceLanguage(code.properties.className);
  return el("div", "tl-code", [
    el("div", CODE_HEAD, [
      el("span", CODE_LANGUAGE, [text(language ?? "")]),
      el("span", ROW_ACTION, [text("Copy")]),
    ]),
    el("pre", "tl-code-block", [el("code", undefined, [text(textOf(code).replace(/\n$/, ""))])]),
  ]);
}

function rewrite(node: HastChild): HastChild | undefined {
  // Text stays text; comments and raw HTML (which the parser already dropped) go.
  if (node.type === "text") return node;
  if (node.type !== "element") return undefined;
  switch (node.tagName) {
    case "a":
      // The renderer's link, without its href: nothing in the picture is a way out.
      return el(
        "span",
        safeUrl(String(node.properties.href ?? "")) ? LINK : undefined,
        children(node),
      );
    case "img": {
      const label = imageLabel(String(node.properties.alt ?? ""));
      return safeUrl(String(node.properties.src ?? ""))
        ? el("span", LINK, [text(label)])
        : el("span", undefined, [text(`[${label}]`)]);
    }
    case "pre": {
      const code = node.children.find(
        (child): child is HastElement => child.type === "element" && child.tagName === "code",
      );
      return code ? codeBlock(code) : el("pre", "tl-code-block", children(node));
    }
    case "table":
      return el("div", "overflow-x-auto", [el("table", undefined, children(node))]);
    default: {
      const properties: HastElement["properties"] = {};
      for (const [name, value] of Object.entries(node.properties)) {
        if (KEPT.has(name)) properties[name] = value;
      }
      // A task list's checkbox is only ever a picture of one.
      if (node.tagName === "input") properties.disabled = true;
      return { type: "element", tagName: node.tagName, properties, children: children(node) };
    }
  }
}

function children(node: HastElement): HastChild[] {
  return node.children.flatMap((child) => rewrite(child) ?? []);
}

/** `text` parsed as agent Markdown, inside the renderer's own `.tl-markdown` box. */
export function markdownTree(markdown: string): HastElement {
  const root = processor.runSync(processor.parse(markdown)) as unknown as {
    children: HastChild[];
  };
  return el(
    "div",
    "tl-markdown",
    root.children.flatMap((child) => rewrite(child) ?? []),
  );
}
