// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

// Counts the parses: the real react-markdown, wrapped.
const parses = vi.hoisted(() => ({ count: 0 }));
vi.mock("react-markdown", async (importOriginal) => {
  const actual = await importOriginal<typeof import("react-markdown")>();
  const Markdown = actual.default;
  return {
    ...actual,
    default: (props: Parameters<typeof Markdown>[0]) => {
      parses.count += 1;
      return Markdown(props);
    },
  };
});

const { default: MarkdownRenderer } = await import("./markdown-renderer");

describe("MarkdownRenderer", () => {
  it("when a row with an unchanged message re-enters the window, then its Markdown is not parsed again", () => {
    const text = "Re-entering **row** with a [link](https://example.com)";
    const first = render(<MarkdownRenderer text={text} />);
    expect(screen.getByRole("link", { name: "link" })).toBeTruthy();
    first.unmount();
    const parsedOnce = parses.count;
    expect(parsedOnce).toBe(1);
    render(<MarkdownRenderer text={text} />);
    expect(screen.getByRole("link", { name: "link" })).toBeTruthy();
    expect(parses.count).toBe(parsedOnce);
  });

  it("when the message text changes, then the new text is parsed", () => {
    const before = parses.count;
    const { rerender } = render(<MarkdownRenderer text="first version" />);
    rerender(<MarkdownRenderer text="second **version**" />);
    expect(parses.count).toBe(before + 2);
    expect(screen.getByText("version").tagName).toBe("STRONG");
  });
});
