// Agent Markdown must never outrank the page: `# Title` in a reply is not the page's h1.
// A remark plugin that maps a document's heading levels, in rank order and without gaps,
// onto the levels below the page's own (h1 the session, h2 its sections): the first level
// used becomes h3, the next h4, and so on, capped at h6.

/** The highest level agent content may use. */
const FIRST_CONTENT_LEVEL = 3;

type MdNode = { type: string; depth?: number; children?: MdNode[] };

/** `[1, 3]` → `{1: 3, 3: 4}`: each level used moves to the next free one from `first`. */
function headingLevelMap(levels: Iterable<number>, first = FIRST_CONTENT_LEVEL) {
  const ranked = [...new Set(levels)].sort((a, b) => a - b);
  return new Map(ranked.map((level, rank) => [level, Math.min(6, first + rank)]));
}

function collect(node: MdNode, into: MdNode[]): void {
  if (node.type === "heading") into.push(node);
  for (const child of node.children ?? []) collect(child, into);
}

export function remarkContentHeadings() {
  return (tree: MdNode) => {
    const headings: MdNode[] = [];
    collect(tree, headings);
    const map = headingLevelMap(headings.map((heading) => heading.depth ?? 1));
    for (const heading of headings) heading.depth = map.get(heading.depth ?? 1) ?? 6;
  };
}
