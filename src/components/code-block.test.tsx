// @vitest-environment jsdom
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CodeBlock } from "./code-block";
import { fenceLanguage } from "./looks";
import MarkdownRenderer from "./markdown-renderer";

afterEach(() => vi.restoreAllMocks());

/** Rendered in an awaited act: the highlighter's chunk resolves a suspended `use`. */
async function renderAwaited(ui: ReactElement) {
  let result: ReturnType<typeof render> | undefined;
  await act(async () => {
    result = render(ui);
  });
  if (!result) throw new Error("not rendered");
  return result;
}

describe("CodeBlock", () => {
  it("when the highlighter has loaded, then a TypeScript block's tokens carry highlight.js classes and the text is unchanged", async () => {
    const code = 'const answer: number = 42; // the "answer"';
    const { container } = await renderAwaited(<CodeBlock text={code} language="ts" />);
    await waitFor(() => expect(container.querySelector(".hljs-keyword")).not.toBeNull(), {
      timeout: 5_000,
    });
    expect(container.querySelector(".hljs-keyword")).toHaveTextContent("const");
    expect(container.querySelector(".hljs-number")).toHaveTextContent("42");
    expect(container.querySelector(".hljs-comment")).toHaveTextContent('// the "answer"');
    expect(container.querySelector("code")).toHaveTextContent(code);
    expect(screen.getByText("ts")).toBeInTheDocument();
  });

  it("when a block holds markup, then it is text: no element of it reaches the DOM", async () => {
    const code = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    const { container } = await renderAwaited(<CodeBlock text={code} language="html" />);
    await waitFor(() => expect(container.querySelector(".hljs-tag")).not.toBeNull(), {
      timeout: 5_000,
    });
    expect(container.querySelector("img, script")).toBeNull();
    expect(container.querySelector("code")).toHaveTextContent(code);
  });

  it("when the language is unknown or missing, then the block is plain text", async () => {
    // Beside a TypeScript block: once that one is highlighted, the highlighter has loaded
    // and rendered every block, so plain text here is the answer, not "not yet".
    const { container } = await renderAwaited(
      <>
        <CodeBlock text="print 1" language="brainfudge" />
        <CodeBlock text="print 2" language={undefined} />
        <CodeBlock text="const x = 1;" language="ts" />
      </>,
    );
    const [unknown, missing, control] = container.querySelectorAll("code");
    await waitFor(() => expect(control?.querySelector(".hljs-keyword")).not.toBeNull(), {
      timeout: 5_000,
    });
    expect(unknown?.querySelector("span")).toBeNull();
    expect(unknown).toHaveTextContent("print 1");
    expect(missing?.querySelector("span")).toBeNull();
    expect(missing).toHaveTextContent("print 2");
  });

  it("when Copy is pressed, then the code is written to the clipboard and it says so", async () => {
    // user-event puts its own Clipboard on the page; it is read back after the copy.
    const user = userEvent.setup();
    await renderAwaited(<CodeBlock text={"npm test\n"} language="sh" />);
    await user.click(screen.getByRole("button", { name: "Copy code" }));
    expect(await navigator.clipboard.readText()).toBe("npm test\n");
    expect(screen.getByRole("status")).toHaveTextContent("Copied");
  });

  it("when the clipboard refuses, then it says it could not copy", async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, "writeText").mockRejectedValue(new Error("denied"));
    await renderAwaited(<CodeBlock text="x" language={undefined} />);
    await user.click(screen.getByRole("button", { name: "Copy code" }));
    expect(await screen.findByText("Couldn't copy")).toBeInTheDocument();
  });

  it("when a fence names its language, then it is read from the class; anything else is none", () => {
    expect(fenceLanguage(["language-TypeScript"])).toBe("typescript");
    expect(fenceLanguage(["hljs", "language-py"])).toBe("py");
    expect(fenceLanguage(["language-"])).toBeUndefined();
    expect(fenceLanguage("language-ts")).toBeUndefined();
    expect(fenceLanguage(undefined)).toBeUndefined();
  });
});

describe("fenced code in Markdown", () => {
  it("when a reply has a fenced block, then it is a code block with Copy (without the closing newline) and highlighted", async () => {
    const user = userEvent.setup();
    const { container } = await renderAwaited(
      <MarkdownRenderer text={"Run it:\n\n```python\ndef f():\n    return 1\n```\n"} />,
    );
    await waitFor(() => expect(container.querySelector(".hljs-keyword")).not.toBeNull(), {
      timeout: 5_000,
    });
    expect(container.querySelector("pre")).toHaveAttribute("tabindex", "0");
    await user.click(screen.getByRole("button", { name: "Copy code" }));
    expect(await navigator.clipboard.readText()).toBe("def f():\n    return 1");
  });
});
