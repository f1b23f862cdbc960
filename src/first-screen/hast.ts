// The few HTML tree shapes the first screen is built from (hast, as remark-rehype writes
// it), and their serialization: hast-util-to-html escapes every text and attribute, so no
// string from a transcript is ever spliced into the page as markup.
import { toHtml } from "hast-util-to-html";

type PropertyValue = string | number | boolean | Array<string | number> | null | undefined;

export type HastElement = {
  type: "element";
  tagName: string;
  properties: Record<string, PropertyValue>;
  children: HastChild[];
};
export type HastChild =
  | HastElement
  | { type: "text"; value: string }
  | { type: "comment"; value: string }
  | { type: "raw"; value: string };

export function text(value: string): HastChild {
  return { type: "text", value };
}

/** An element with a class list (split as hast keeps it) and, optionally, more properties. */
export function el(
  tagName: string,
  className: string | undefined,
  children: HastChild[] = [],
  properties: Record<string, PropertyValue> = {},
): HastElement {
  const classes = className?.split(/\s+/).filter(Boolean) ?? [];
  return {
    type: "element",
    tagName,
    properties: classes.length > 0 ? { className: classes, ...properties } : properties,
    children,
  };
}

export function serialize(node: HastElement): string {
  return toHtml(node as Parameters<typeof toHtml>[0]);
}
