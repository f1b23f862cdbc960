// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { TranscriptData } from "../../api/transcript-cache";
import { transcriptQueries } from "../../api/transcript-queries";
import type { Entry } from "../../contract/transcript";
import { mockDaemon, requestsTo } from "../../testing/msw";
import { SessionTimeline } from "./session-timeline";

const ref = { workspaceId: "w1", sessionId: "s1" };

function textEntry(start: number): Entry {
  return {
    start_sequence: start,
    sequence: start,
    message: {
      id: `m${start}`,
      role: start % 2 ? "assistant" : "user",
      parts: [{ type: "text", id: "p", text: `message number ${start}` }],
    },
  };
}

function compactionEntry(start: number, status: string, sequence = start): Entry {
  return {
    start_sequence: start,
    sequence,
    message: {
      id: `c${start}`,
      role: "system",
      parts: [
        {
          type: "data-compozy-compaction",
          id: "cmp-1",
          data: {
            kind: "compaction",
            compaction_id: "cmp-1",
            status,
            started_at: "2026-11-30T08:42:00Z",
          },
        },
      ],
    },
  };
}

function data(entries: Entry[]): TranscriptData {
  return {
    epoch: 1,
    generation: 0,
    entries,
    cursor: 100,
    hasOlder: false,
    nextBeforeSequence: undefined,
  };
}

// jsdom has no layout: give the scroller a viewport and every row a height.
const LAYOUT = {
  offsetHeight: (element: HTMLElement) => (element.hasAttribute("data-index") ? 80 : 600),
  clientHeight: () => 600,
  offsetWidth: () => 800,
  clientWidth: () => 800,
} as const;
const originals = Object.keys(LAYOUT).map(
  (name) => [name, Object.getOwnPropertyDescriptor(HTMLElement.prototype, name)] as const,
);
beforeAll(() => {
  for (const [name, get] of Object.entries(LAYOUT)) {
    Object.defineProperty(HTMLElement.prototype, name, {
      configurable: true,
      get(this: HTMLElement) {
        return get(this);
      },
    });
  }
});
afterAll(() => {
  for (const [name, descriptor] of originals) {
    if (descriptor) Object.defineProperty(HTMLElement.prototype, name, descriptor);
  }
});

const TRANSCRIPT = "/api/workspaces/w1/sessions/s1/transcript";
// The daemon is down: whatever the timeline asks for is a 500.
const requests = mockDaemon(
  http.all("/api/*", () =>
    HttpResponse.json({ error: "daemon down", code: "internal" }, { status: 500 }),
  ),
);

let client: QueryClient;
beforeEach(() => {
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
});
afterEach(() => {
  vi.restoreAllMocks();
});

function renderTimeline(state: "connecting" | "open" | "reconnecting" = "open") {
  return render(
    <QueryClientProvider client={client}>
      <SessionTimeline session={ref} stream={{ state }} />
    </QueryClientProvider>,
  );
}

describe("SessionTimeline", () => {
  it("shows an inline error with Retry when the transcript cannot be read", async () => {
    const user = userEvent.setup();
    renderTimeline();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Couldn't load the transcript");
    expect(alert).toHaveTextContent("daemon down");
    const before = requestsTo(requests, TRANSCRIPT).length;
    expect(before).toBeGreaterThan(0);
    await user.click(screen.getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(requestsTo(requests, TRANSCRIPT).length).toBeGreaterThan(before));
  });

  it("while the stream is down, then a running compaction's clock says it is paused", () => {
    client.setQueryData(transcriptQueries.key("s1"), data([compactionEntry(1, "in_progress")]));
    renderTimeline("reconnecting");
    expect(screen.getByText(/paused while the daemon is unreachable/)).toBeInTheDocument();
  });

  it("when the transcript is empty, then a short hint says what to do first", () => {
    client.setQueryData(transcriptQueries.key("s1"), data([]));
    renderTimeline();
    expect(screen.getByText(/Write to the agent in the box below/)).toBeInTheDocument();
  });

  it("renders a malformed entry as an unsupported row and the rest as usual", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const broken: Entry = {
      start_sequence: 2,
      sequence: 2,
      message: {
        id: "x",
        role: "system",
        parts: [{ type: "unsupported", original_type: "entry", reason: "bad", raw: {} }],
      },
    };
    client.setQueryData(transcriptQueries.key("s1"), data([textEntry(1), broken, textEntry(3)]));
    renderTimeline();
    expect(screen.getByText("Unsupported item (entry)")).toBeInTheDocument();
    expect(await screen.findByText("message number 1")).toBeInTheDocument();
    expect(screen.getByText("message number 3")).toBeInTheDocument();
  });

  it("announces a compaction once, politely, when it reaches a terminal status", async () => {
    client.setQueryData(
      transcriptQueries.key("s1"),
      data([textEntry(1), compactionEntry(2, "in_progress")]),
    );
    const { container } = renderTimeline();
    const live = container.querySelector('[aria-live="polite"]');
    expect(live).toHaveTextContent("");
    act(() => {
      client.setQueryData(
        transcriptQueries.key("s1"),
        data([textEntry(1), compactionEntry(2, "completed", 5)]),
      );
    });
    await waitFor(() => expect(live).toHaveTextContent("Context compacted"));
    expect(container.querySelectorAll('[aria-live="polite"]')).toHaveLength(1);
    expect(screen.getAllByRole("status", { name: "Context compacted" })).toHaveLength(1);
  });

  it("keeps a 10,000-entry session to a small DOM", () => {
    const entries = Array.from({ length: 10_000 }, (_, index) => textEntry(index + 1));
    client.setQueryData(transcriptQueries.key("s1"), data(entries));
    renderTimeline();
    const transcript = screen.getByRole("region", { name: "Transcript" });
    const count = transcript.querySelectorAll("*").length;
    expect(count).toBeGreaterThan(10);
    expect(count).toBeLessThanOrEqual(1_500);
  });

  it("when a compaction completed, then the row itself marks it and the turns before it are drawn like the turns after it (ADR 0102)", () => {
    client.setQueryData(
      transcriptQueries.key("s1"),
      data([textEntry(1), compactionEntry(2, "completed"), textEntry(3)]),
    );
    renderTimeline();
    expect(screen.getByRole("status", { name: "Context compacted" })).toBeVisible();
    // Both replies are assistant rows: any dimming of the earlier one shows as a difference
    // in the classes or styles along its ancestry.
    const lineage = (text: string) => {
      const chain: string[] = [];
      for (
        let node = screen.getByText(text) as HTMLElement | null;
        node;
        node = node.parentElement
      ) {
        if (node.getAttribute("role") === "region") break;
        chain.push(`${node.tagName}.${node.className}|${node.getAttribute("style") ?? ""}`);
      }
      return chain.map((link) => link.replace(/translateY\([^)]*\)|top: [^;]*;?/g, ""));
    };
    expect(lineage("message number 1")).toEqual(lineage("message number 3"));
  });
});
