// @vitest-environment jsdom
import { act, render, renderHook, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Part } from "../../contract/transcript";
import { PartView } from "./part-view";
import { useTimelineActions } from "./timeline-store";

const noMarker = () => undefined;

function renderPart(raw: unknown, itemKey = "1:0") {
  return render(<PartView part={Part.parse(raw)} itemKey={itemKey} markerFor={noMarker} />);
}

beforeEach(() => {
  const { result, unmount } = renderHook(() => useTimelineActions());
  act(() => result.current.sessionOpened());
  unmount();
});
afterEach(() => vi.restoreAllMocks());

describe("PartView", () => {
  it("renders text as GFM Markdown", async () => {
    renderPart({ type: "text", id: "t", text: "Use ~~old~~ **new** | a |\n|---|\n| b |" });
    expect(await screen.findByText("new", { selector: "strong" })).toBeInTheDocument();
    expect(screen.getByText("old", { selector: "del" })).toBeInTheDocument();
  });

  it("keeps reasoning collapsed behind 'Thinking' until opened", async () => {
    const user = userEvent.setup();
    renderPart({ type: "reasoning", id: "r", text: "secret plan" });
    const toggle = screen.getByRole("button", { name: "Thinking" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByText("secret plan")).toBeNull();
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(await screen.findByText("secret plan")).toBeInTheDocument();
  });

  it("shows a tool row with title, kind and state that expands to its output, raw input behind a toggle", async () => {
    const user = userEvent.setup();
    renderPart({
      type: "tool-read",
      toolCallId: "call-1",
      title: "Read src/app.ts",
      state: "output-available",
      input: { path: "src/app.ts" },
      output: "export const x = 1;",
    });
    const row = screen.getByRole("button", { name: /Read src\/app\.ts/ });
    expect(row).toHaveTextContent("read");
    expect(row).toHaveTextContent("done");
    expect(row).toHaveAttribute("aria-expanded", "false");
    await user.click(row);
    expect(row).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByText("export const x = 1;")).toBeVisible();
    // The raw input stays behind its disclosure.
    expect(screen.getByText(/"path": "src\/app\.ts"/)).not.toBeVisible();
    await user.click(screen.getByText("Raw input and output"));
    expect(screen.getByText(/"path": "src\/app\.ts"/)).toBeVisible();
  });

  it("shows a failed tool with its error text", async () => {
    const user = userEvent.setup();
    renderPart({
      type: "tool-execute",
      toolCallId: "c",
      title: "npm test",
      state: "output-error",
      errorText: "exit 1",
    });
    const row = screen.getByRole("button", { name: /npm test/ });
    expect(row).toHaveTextContent("failed");
    await user.click(row);
    expect(screen.getByText("Error: exit 1")).toBeInTheDocument();
  });

  it("shows an event as one muted line", () => {
    renderPart({
      type: "data-compozy-event",
      id: "e",
      data: { type: "session.state", state: "stopped" },
    });
    expect(screen.getByText("Session stopped")).toBeInTheDocument();
  });

  it("shows an unknown part as 'Unsupported item (type)' and warns once", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { rerender } = renderPart({ type: "data-vendor-chart", id: "x", data: {} }, "7:0");
    expect(screen.getByText("Unsupported item (data-vendor-chart)")).toBeInTheDocument();
    rerender(
      <PartView
        part={Part.parse({ type: "data-vendor-chart", id: "x" })}
        itemKey="7:0"
        markerFor={noMarker}
      />,
    );
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("shows a malformed known part as unsupported", () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    renderPart({ type: "tool-edit", toolCallId: "c", title: "Edit", state: "exploded" }, "8:0");
    expect(screen.getByText("Unsupported item (tool-edit)")).toBeInTheDocument();
  });
});
