// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Part } from "../../contract/transcript";
import { PartView } from "./part-view";

// Claude Code's informational chunk from the recorded frames (one line, ~450 characters):
// the daemon keeps its first 199 characters and "…" as the title, the whole as description.
const CLAUDE_TEXT =
  "Warning: We're changing auto mode to no longer charge for classifier requests in Claude Code. However, this session isn't eligible because your requests go through 127.0.0.1:4910, which isn't compatible with this update. Nothing breaks: auto mode keeps working, and its classifier requests are billed as before.";

function renderNotice(data: Record<string, unknown>) {
  const part = Part.parse({ type: "data-compozy-event", data: { type: "notice", ...data } });
  return render(<PartView part={part} itemKey="1:0" markerFor={() => undefined} />);
}

describe("an adapter's notice in the timeline", () => {
  it("when a notice has a title and a description, then the row reads both", () => {
    renderNotice({
      severity: "warning",
      title: "Claude reported a warning",
      description: "Rate limit close: 90% of this hour's requests used.",
      source: "acp",
    });
    expect(screen.getByText("Warning")).toBeVisible();
    expect(screen.getByText(": Claude reported a warning")).toBeVisible();
    expect(screen.getByText("Rate limit close: 90% of this hour's requests used.")).toBeVisible();
  });

  it("when the daemon cut a long one-line notice's title, then the whole text shows once", () => {
    const { container } = renderNotice({
      severity: "warning",
      title: `${CLAUDE_TEXT.slice(0, 199)}…`,
      description: CLAUDE_TEXT,
      source: "message_chunk",
      _meta: { claudeCode: { kind: "informational", level: "warning" } },
    });
    expect(screen.getByText(/its classifier requests are billed as before\.$/)).toBeVisible();
    // Said once, with the label once ("Warning", not "Warning Warning:").
    expect(container.textContent).toBe(`Warning${CLAUDE_TEXT.replace(/^Warning: /, "")}`);
  });

  it("when a notice has no severity or text, then it is a plain notice with its title", () => {
    renderNotice({ title: "Session resumed from a saved state" });
    expect(screen.getByText("Notice")).toBeVisible();
    expect(screen.getByText(": Session resumed from a saved state")).toBeVisible();
  });
});
