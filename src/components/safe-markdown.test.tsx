// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import MarkdownRenderer from "./markdown-renderer";
import { SafeMarkdown } from "./safe-markdown";

function renderHostile(text: string) {
  const alert = vi.spyOn(window, "alert").mockImplementation(() => {});
  const { container } = render(<MarkdownRenderer text={text} />);
  return { container, alert };
}

function expectInert(container: HTMLElement) {
  expect(container.querySelector("script, img, iframe, object, embed, style")).toBeNull();
  for (const element of container.querySelectorAll("*")) {
    for (const attribute of element.attributes) {
      expect(attribute.name.startsWith("on")).toBe(false);
    }
  }
  for (const anchor of container.querySelectorAll("a")) {
    expect(anchor.getAttribute("href") ?? "").toMatch(/^(https?:\/\/|mailto:)/i);
  }
}

afterEach(() => vi.restoreAllMocks());

describe("untrusted Markdown", () => {
  it("drops raw <script> and never runs it", () => {
    const { container, alert } = renderHostile("Hello <script>alert(1)</script> world");
    expectInert(container);
    expect(container).toHaveTextContent("Hello");
    expect(alert).not.toHaveBeenCalled();
  });

  it("keeps javascript: and data: links as plain text", () => {
    const { container } = renderHostile(
      "[run](javascript:alert(1)) [page](data:text/html;base64,PHNjcmlwdD4=) [rel](/etc/passwd) [VB](vbscript:x)",
    );
    expectInert(container);
    expect(screen.queryByRole("link")).toBeNull();
    expect(container).toHaveTextContent("run page rel VB");
  });

  it("drops <img onerror> HTML", () => {
    const { container, alert } = renderHostile('before <img src=x onerror="alert(1)"> after');
    expectInert(container);
    expect(alert).not.toHaveBeenCalled();
  });

  it("never fetches a Markdown image: it becomes a link labelled with its alt text", () => {
    const { container } = renderHostile("![chart of doom](http://evil/x.png) ![](javascript:x)");
    expectInert(container);
    const link = screen.getByRole("link", { name: "Image: chart of doom" });
    expect(link).toHaveAttribute("href", "http://evil/x.png");
    expect(container).toHaveTextContent("[Image: untitled]");
  });

  it("drops HTML comments", () => {
    const { container } = renderHostile("visible <!-- hidden <script>x</script> --> text");
    expectInert(container);
    expect(container.innerHTML).not.toContain("<!--");
    expect(container).not.toHaveTextContent("hidden");
  });

  it("opens allowed links in a new tab without an opener", () => {
    renderHostile("[docs](https://example.com/a) and <mailto:ops@example.com>");
    const docs = screen.getByRole("link", { name: "docs" });
    expect(docs).toHaveAttribute("target", "_blank");
    expect(docs).toHaveAttribute("rel", "noopener noreferrer");
    expect(screen.getByRole("link", { name: "mailto:ops@example.com" })).toHaveAttribute(
      "href",
      "mailto:ops@example.com",
    );
  });

  it("renders GFM tables, task lists and code blocks that scroll", () => {
    const { container } = renderHostile(
      "| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\n```ts\nconst x = 1;\n```",
    );
    expect(screen.getByRole("table")).toBeInTheDocument();
    expect(screen.getByRole("checkbox")).toBeChecked();
    expect(container.querySelector("pre")).toHaveClass("tl-code-block");
  });

  it("renders a 16 KiB hostile summary completely and inertly", () => {
    const block = [
      "## Section",
      "- item with `code` and [link](https://example.com)",
      "<script>alert(1)</script> <img src=x onerror=alert(1)> ![i](http://evil/i.png)",
      "[x](javascript:alert(1))",
      "",
    ].join("\n");
    const text = `${block.repeat(Math.ceil((16 * 1024) / block.length))}THE END`;
    expect(text.length).toBeGreaterThan(16 * 1024);
    const { container, alert } = renderHostile(text);
    expectInert(container);
    expect(alert).not.toHaveBeenCalled();
    expect(container).toHaveTextContent("THE END");
    expect(screen.getAllByRole("heading", { name: "Section" }).length).toBeGreaterThan(50);
  });

  it("shows the text at once and the rendered Markdown once the lazy renderer loads", async () => {
    render(<SafeMarkdown text={"**bold** <script>alert(1)</script>"} />);
    expect(await screen.findByText("bold", { selector: "strong" })).toBeInTheDocument();
    expect(document.querySelector("script")).toBeNull();
  });
});

describe("headings in agent Markdown", () => {
  it("when a reply uses # and ###, then they become h3 and h4, below the page's h1 and h2", () => {
    render(<MarkdownRenderer text={"# Showcase\n\ntext\n\n### Detail\n\n# Again"} />);
    expect(screen.getAllByRole("heading", { level: 3 }).map((h) => h.textContent)).toEqual([
      "Showcase",
      "Again",
    ]);
    expect(screen.getByRole("heading", { level: 4 })).toHaveTextContent("Detail");
    expect(screen.queryByRole("heading", { level: 1 })).toBeNull();
    expect(screen.queryByRole("heading", { level: 2 })).toBeNull();
  });

  it("when a reply uses all six levels, then the deepest ones share h6", () => {
    render(<MarkdownRenderer text={"# a\n## b\n### c\n#### d\n##### e\n###### f"} />);
    expect(screen.getAllByRole("heading", { level: 6 }).map((h) => h.textContent)).toEqual([
      "d",
      "e",
      "f",
    ]);
  });
});

describe("boxes that scroll sideways", () => {
  it("when a reply has a code block and a table, then both can take keyboard focus", () => {
    const { container } = render(
      <MarkdownRenderer text={"```\nconst x = 1;\n```\n\n| a | b |\n| - | - |\n| 1 | 2 |"} />,
    );
    expect(container.querySelector("pre")).toHaveAttribute("tabindex", "0");
    expect(container.querySelector("table")?.parentElement).toHaveAttribute("tabindex", "0");
  });
});
