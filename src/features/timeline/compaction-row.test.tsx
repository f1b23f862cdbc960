// @vitest-environment jsdom
import { act, render, renderHook, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CompactionItem } from "../../contract/transcript";
import { CompactionContext } from "./compaction-context";
import { CompactionRow } from "./compaction-row";
import { useTimelineActions } from "./timeline-store";

const STARTED = "2026-11-30T08:42:00.000Z";

function item(overrides: Partial<CompactionItem> = {}): CompactionItem {
  return {
    kind: "compaction",
    compaction_id: "c1",
    status: "in_progress",
    started_at: STARTED,
    ...overrides,
  };
}

beforeEach(() => {
  const { result, unmount } = renderHook(() => useTimelineActions());
  act(() => result.current.sessionOpened());
  unmount();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("CompactionRow states", () => {
  it("in progress: a status with a spinner and a ticking elapsed time", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-30T08:42:12.000Z"));
    const { container } = render(<CompactionRow item={item()} />);
    const status = screen.getByRole("status", { name: "Compacting context…" });
    expect(status.querySelector(".animate-spin")).not.toBeNull();
    expect(screen.getByText("12 s")).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(3000));
    expect(screen.getByText("15 s")).toBeInTheDocument();
    expect(container).toHaveTextContent("Started");
  });

  it("completed: a status with start/end times and before → after figures from the marker", () => {
    render(
      <CompactionRow
        item={item({ status: "completed", ended_at: "2026-11-30T08:42:12.000Z" })}
        marker={{
          turn_id: "",
          sequence: 9,
          at: STARTED,
          compaction_id: "c1",
          trigger: "requested",
          status: "completed",
          context_used: 180_000,
          context_after: { used: 42_000, sequence: 12 },
        }}
      />,
    );
    const status = screen.getByRole("status", { name: "Context compacted" });
    expect(status.querySelector(".animate-spin")).toBeNull();
    expect(screen.getByText(/\(12 s\)/)).toBeInTheDocument();
    expect(screen.getByText(/180K → 42K tokens/)).toBeInTheDocument();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("failed with an error that restates the failure: 'failed' is said once", () => {
    render(
      <CompactionRow
        item={item({
          status: "failed",
          error: "Compaction failed: context too small",
          ended_at: STARTED,
        })}
      />,
    );
    expect(
      screen.getByRole("alert", { name: "Context compaction failed — context too small" }),
    ).toBeInTheDocument();
  });

  it("failed: an alert carrying the error", () => {
    render(
      <CompactionRow
        item={item({ status: "failed", error: "model overloaded", ended_at: STARTED })}
      />,
    );
    expect(
      screen.getByRole("alert", { name: "Context compaction failed — model overloaded" }),
    ).toBeInTheDocument();
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("failed with a blank error: no dash, no empty error", () => {
    render(<CompactionRow item={item({ status: "failed", error: "   ", ended_at: STARTED })} />);
    expect(screen.getByRole("alert", { name: "Context compaction failed" })).toHaveTextContent(
      /^✕Context compaction failed$/,
    );
  });

  it("cancelled: a neutral status", () => {
    render(<CompactionRow item={item({ status: "cancelled", ended_at: STARTED })} />);
    expect(
      screen.getByRole("status", { name: "Context compaction cancelled" }),
    ).toBeInTheDocument();
  });

  it("a vendor status: shown verbatim, no spinner, not finished", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-30T08:43:00.000Z"));
    const { container } = render(<CompactionRow item={item({ status: "_paused" })} />);
    const status = screen.getByRole("status", { name: "_paused" });
    expect(container.querySelector(".animate-spin")).toBeNull();
    expect(status).toHaveTextContent("_paused");
    // Not finished: no end time, no elapsed clock frozen as if done.
    expect(container).toHaveTextContent("Started");
    expect(container).not.toHaveTextContent("→");
  });

  it("updates in place as the stream patches the item", () => {
    const { rerender, container } = render(<CompactionRow item={item()} />);
    const row = container.firstElementChild;
    rerender(
      <CompactionRow item={item({ status: "completed", ended_at: "2026-11-30T08:42:05.000Z" })} />,
    );
    expect(container.firstElementChild).toBe(row);
    expect(screen.getByRole("status", { name: "Context compacted" })).toBeInTheDocument();
  });
});

describe("the summary disclosure", () => {
  const summary = "## Goal\n\nShip **it**.\n\n<script>alert(1)</script>";

  it("has no disclosure when the summary is absent or blank", () => {
    render(<CompactionRow item={item({ status: "completed", summary: "  \n " })} />);
    expect(screen.queryByRole("button", { name: /Summary/ })).toBeNull();
  });

  it("when a compaction did not complete, then its summary is labelled partial", () => {
    render(
      <CompactionRow item={item({ status: "cancelled", ended_at: STARTED, summary: "half" })} />,
    );
    expect(
      screen.getByRole("button", { name: /^Partial summary of the compaction at / }),
    ).toBeVisible();
  });

  it("when two compactions have summaries, then their disclosures have different names", () => {
    render(
      <>
        <CompactionRow item={item({ status: "completed", summary: "one" })} />
        <CompactionRow
          item={item({
            compaction_id: "c2",
            status: "completed",
            summary: "two",
            started_at: "2026-11-30T09:15:30.000Z",
          })}
        />
      </>,
    );
    const names = screen.getAllByRole("button").map((button) => button.getAttribute("aria-label"));
    expect(new Set(names).size).toBe(2);
  });

  it("opens from the keyboard into a summary region named by its time, whose Copy copies the raw Markdown", async () => {
    const user = userEvent.setup();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    render(<CompactionRow item={item({ status: "completed", ended_at: STARTED, summary })} />);

    const toggle = screen.getByRole("button", { name: /^Summary of the compaction at \S+/ });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("region")).toBeNull();

    await user.tab();
    expect(toggle).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    const region = screen.getByRole("region", { name: /^Summary of the compaction at \S+/ });
    expect(toggle).toHaveAttribute("aria-controls", region.id);
    // The Markdown renderer is a lazily loaded chunk: a loaded machine may take a while.
    expect(
      await within(region).findByRole("heading", { name: "Goal" }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(region.querySelector("script")).toBeNull();

    await user.keyboard(" ");
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    await user.keyboard(" ");
    expect(toggle).toHaveAttribute("aria-expanded", "true");

    await user.tab();
    const copy = screen.getByRole("button", { name: "Copy" });
    expect(copy).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(writeText).toHaveBeenCalledWith(summary);
    expect(await screen.findByRole("button", { name: "Copied" })).toBeInTheDocument();
  });
});

describe("what a finished compaction says about its figures and cause", () => {
  it("when it failed, then it shows only the reading it started from, with no arrow", () => {
    const { container } = render(
      <CompactionRow
        item={item({ status: "failed", ended_at: STARTED, error: "too small" })}
        marker={{
          turn_id: "t1",
          sequence: 3,
          at: STARTED,
          compaction_id: "c1",
          trigger: "requested",
          status: "failed",
          context_used: 8_200,
          context_after: { used: 8_800, sequence: 4 },
        }}
      />,
    );
    expect(container).toHaveTextContent("from 8.2K tokens");
    expect(container).not.toHaveTextContent("8.8K");
    expect(container).toHaveTextContent("Compaction was requested");
  });

  it("when the CLI or an agent's session tool asked for it, then the row says so, not 'You pressed'", () => {
    const words = (requestedBy: "cli" | "tool" | "http" | "web") => {
      const { container, unmount } = render(
        <CompactionContext
          value={{ offline: false, exitFor: () => undefined, requestFor: () => ({ requestedBy }) }}
        >
          <CompactionRow
            item={item({ status: "completed", ended_at: STARTED })}
            marker={{
              turn_id: "t1",
              sequence: 3,
              at: STARTED,
              compaction_id: "c1",
              trigger: "requested",
              status: "completed",
            }}
          />
        </CompactionContext>,
      );
      const text = container.textContent ?? "";
      unmount();
      return text;
    };
    expect(words("cli")).toContain("Requested from the command line");
    expect(words("cli")).not.toContain("You pressed");
    expect(words("tool")).toContain("An agent asked with its session tool");
    expect(words("http")).toContain("Requested through the HTTP API");
    expect(words("web")).toContain("You pressed Compact now");
  });

  it("when the daemon closed it because the agent exited, then the row says interrupted and why", () => {
    render(
      <CompactionContext
        value={{
          offline: false,
          exitFor: () => "agent exited (code 3)",
          requestFor: () => undefined,
        }}
      >
        <CompactionRow
          item={item({
            status: "cancelled",
            ended_at: STARTED,
            error: "agent exited before the compaction finished",
            summary: "## Goal\n\nhalf of it",
          })}
        />
      </CompactionContext>,
    );
    expect(
      screen.getByRole("alert", { name: "Context compaction interrupted — agent exited (code 3)" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /^Partial summary/ })).toBeVisible();
  });

  it("while the daemon is unreachable, then the elapsed clock stops and says why", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-30T08:42:12.000Z"));
    render(
      <CompactionContext
        value={{ offline: true, exitFor: () => undefined, requestFor: () => undefined }}
      >
        <CompactionRow item={item()} />
      </CompactionContext>,
    );
    expect(screen.getByText(/^12 s · paused while the daemon is unreachable$/)).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.getByText(/^12 s · paused/)).toBeInTheDocument();
  });
});
