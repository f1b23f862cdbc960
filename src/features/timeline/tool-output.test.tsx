// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { DIFF_LINE_LIMIT } from "./diff-block";
import { TERMINAL_LINE_LIMIT } from "./terminal-block";
import { ToolOutput } from "./tool-output";
import { toolOutputView } from "./tool-output-view";

describe("ToolOutput", () => {
  it("when an edit carries a diff, then changed lines have numbers, a sign and a spoken label", async () => {
    render(
      <ToolOutput
        view={toolOutputView({
          output: {
            content: [{ type: "diff", path: "/p/a.ts", oldText: "a\nb\n", newText: "a\nB\n" }],
          },
        })}
      />,
    );
    // The diff view is a lazily loaded chunk (ADR 0211).
    const table = await screen.findByRole("table", { name: "Changes to /p/a.ts" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      "@@ -1,2 +1,2 @@",
      "11 unchangeda",
      "2−removedb",
      "2+addedB",
    ]);
    expect(screen.getByText("+1 −1")).toBeInTheDocument();
  });

  it("when a diff is longer than the bound, then 'Show all' reveals the rest", async () => {
    const user = userEvent.setup();
    const newText = Array.from({ length: DIFF_LINE_LIMIT + 50 }, (_, i) => `l${i}`).join("\n");
    render(
      <ToolOutput
        view={toolOutputView({
          output: { content: [{ type: "diff", path: "big", oldText: null, newText }] },
        })}
      />,
    );
    const table = await screen.findByRole("table");
    expect(within(table).getAllByRole("row")).toHaveLength(DIFF_LINE_LIMIT + 1);
    await user.click(
      screen.getByRole("button", { name: /Show all \(52 more lines of the diff\)/ }),
    );
    expect(within(table).getAllByRole("row")).toHaveLength(DIFF_LINE_LIMIT + 53);
  });

  it("when a terminal reports output, then the newest lines show with the exit status", async () => {
    const user = userEvent.setup();
    const output = `${Array.from({ length: TERMINAL_LINE_LIMIT + 5 }, (_, i) => `out ${i}`).join("\n")}\n`;
    render(
      <ToolOutput
        view={toolOutputView({
          input: { command: ["npm", "test"] },
          output: {
            content: [{ type: "terminal", terminalId: "t" }],
            terminals: { t: { output, truncated: false, exit_code: 1 } },
          },
        })}
      />,
    );
    expect(screen.getByText("npm test")).toBeInTheDocument();
    expect(screen.getByText("exit 1")).toBeInTheDocument();
    const pre = screen.getByText(/out 204$/);
    expect(pre.textContent?.startsWith("out 5\n")).toBe(true);
    await user.click(
      screen.getByRole("button", { name: /Show all \(5 more lines of earlier output\)/ }),
    );
    expect(pre.textContent?.startsWith("out 0\n")).toBe(true);
  });

  it("when there is raw input and output, then they stay behind the 'Raw' disclosure", async () => {
    const user = userEvent.setup();
    render(
      <ToolOutput
        view={toolOutputView({ input: { path: "x" }, output: { raw_output: { secret: 1 } } })}
      />,
    );
    const summary = screen.getByText("Raw input and output");
    expect(screen.getByText(/"secret": 1/)).not.toBeVisible();
    await user.click(summary);
    expect(screen.getByText(/"secret": 1/)).toBeVisible();
  });
});
