// @vitest-environment jsdom
// CompozyOS-shaped payloads (src/testing/compozy-examples.ts, written from CompozyOS's
// builders) through the SPA's own read paths — the transcript query, the stream, the
// session list, usage — and rendered by the real timeline: every part as itself, none
// "unsupported".
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, renderHook, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { loadedSessions, sessionQueries } from "../../api/session-queries";
import { type EventSourceLike, SessionStream } from "../../api/session-stream";
import type { TranscriptData } from "../../api/transcript-cache";
import { transcriptQueries } from "../../api/transcript-queries";
import { usageQueries } from "../../api/usage-queries";
import { Part } from "../../contract/transcript";
import * as compozy from "../../testing/compozy-examples";
import { mockDaemon } from "../../testing/msw";
import { PartView } from "./part-view";
import { SessionTimeline } from "./session-timeline";
import { useTimelineActions } from "./timeline-store";

const ref = { workspaceId: compozy.WORKSPACE_ID, sessionId: compozy.SESSION_ID };
const base = `/api/workspaces/${compozy.WORKSPACE_ID}/sessions/${compozy.SESSION_ID}`;

const LAYOUT = {
  offsetHeight: (element: HTMLElement) => (element.hasAttribute("data-index") ? 120 : 2000),
  clientHeight: () => 2000,
  offsetWidth: () => 1000,
  clientWidth: () => 1000,
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

const page = {
  ...compozy.transcriptPage,
  entries: [...compozy.transcriptPage.entries, compozy.entryNullParts],
};

const notFound = () =>
  HttpResponse.json({ error: "not found", code: "not_found" }, { status: 404 });
mockDaemon(
  http.get(`${base}/transcript`, () => HttpResponse.json(page)),
  http.get(`${base}/usage/turns`, () => HttpResponse.json(compozy.usageTurns)),
  http.get(`${base}/usage`, () => HttpResponse.json(compozy.usage)),
  http.get(base, () => HttpResponse.json(compozy.sessionEnvelope)),
  http.get("/api/sessions", () => HttpResponse.json(compozy.sessionList)),
  // Routes of our daemon's that CompozyOS lacks: pins and compaction audits.
  http.get(`${base}/pins`, notFound),
  http.get(`${base}/compactions/:id/audit`, notFound),
);

let warn: ReturnType<typeof vi.fn<(...args: unknown[]) => void>>;
beforeEach(() => {
  warn = vi.fn<(...args: unknown[]) => void>();
  vi.spyOn(console, "warn").mockImplementation(warn);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("CompozyOS's payloads through the SPA", () => {
  it.each(Object.entries(compozy.parts))("the %s part parses as itself", (_name, raw) => {
    const part = Part.parse(raw);
    expect(part.type).toBe(raw.type);
  });

  it.each(Object.entries(compozy.parts))("the %s part renders, not as unsupported", (name, raw) => {
    const { result, unmount } = renderHook(() => useTimelineActions());
    act(() => result.current.sessionOpened());
    unmount();
    const { container } = render(
      <PartView part={Part.parse(raw)} itemKey={`0:${name}`} markerFor={() => undefined} />,
    );
    expect(container).not.toHaveTextContent(/Unsupported item/);
    expect(container.textContent?.trim().length).toBeGreaterThan(0);
  });

  it("when the transcript page is CompozyOS's, then the timeline shows every part and no unsupported row", async () => {
    const user = userEvent.setup();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    // Read through the SPA's own transcript query (parse, leniency, cache fold).
    await client.fetchQuery(transcriptQueries.detail(ref));
    render(
      <QueryClientProvider client={client}>
        <SessionTimeline session={ref} stream={{ state: "open" }} />
      </QueryClientProvider>,
    );
    const timeline = await screen.findByRole("region", { name: "Transcript" });
    await within(timeline).findByText("Migrate the billing service to the new ledger API");
    expect(timeline).not.toHaveTextContent(/Unsupported item/);
    // The user's attachment and prompt (parts without ids).
    expect(within(timeline).getByText("schema.png")).toBeInTheDocument();
    // Tool parts with a title, without one (still preparing), failed, and a dynamic tool.
    expect(
      within(timeline).getByRole("button", { name: /Read internal\/billing\/invoice\.go/ }),
    ).toHaveTextContent("done");
    expect(within(timeline).getByRole("button", { name: /Tool call: execute/ })).toHaveTextContent(
      "preparing",
    );
    expect(within(timeline).getByRole("button", { name: /Edit refunds\.go/ })).toHaveTextContent(
      "failed",
    );
    const dynamic = within(timeline).getByRole("button", { name: /mcp__linear__create_issue/ });
    expect(dynamic).toHaveTextContent("running");
    // The permission part and the plan event part (no id).
    const permission = within(timeline).getByText("Allowed once", { exact: true }).closest("p");
    expect(permission).toHaveTextContent("Run go test ./...");
    expect(within(timeline).getAllByText("Plan updated · 1 of 1 step done")).toHaveLength(2);
    // The compaction row, with its summary behind a disclosure.
    expect(within(timeline).getByRole("status", { name: /Context compacted/i })).toBeVisible();
    await user.click(dynamic);
    expect(within(timeline).getByText(/"title": "Ledger cut-over"/)).toBeInTheDocument();
    expect(
      warn.mock.calls.some(([first]) => String(first).includes("unsupported transcript part")),
    ).toBe(false);
  });

  it("when an entry's parts are null, then it is kept as an empty entry and the rest still render", async () => {
    const client = new QueryClient();
    const data = await client.fetchQuery(transcriptQueries.detail(ref));
    expect(data.entries.map((entry) => entry.start_sequence)).toEqual([901, 902, 917, 920, 921]);
    expect(data.entries.at(-1)?.message.parts).toEqual([]);
    expect(data).toMatchObject({ epoch: 2, generation: 7, cursor: 920 });
  });

  it("when CompozyOS streams a snapshot, a reset snapshot and a delta, then each folds in", () => {
    const client = new QueryClient();
    const handlers = new Map<string, (event: MessageEvent) => void>();
    const source: EventSourceLike = {
      onopen: null,
      onerror: null,
      addEventListener: (type, listener) => handlers.set(type, listener),
      close: () => {},
    };
    const stream = new SessionStream(
      client,
      ref,
      () => source,
      () => 1,
      (flush) => {
        flush();
        return () => {};
      },
    );
    stream.start();
    const emit = (type: string, data: unknown) =>
      handlers.get(type)?.(new MessageEvent(type, { data: JSON.stringify(data) }));
    const cached = () => client.getQueryData<TranscriptData>(transcriptQueries.key(ref.sessionId));
    emit("transcript_snapshot", compozy.transcriptSnapshot);
    expect(cached()?.entries).toHaveLength(4);
    emit("transcript_delta", compozy.transcriptDelta);
    expect(cached()?.entries).toHaveLength(4);
    emit("transcript_snapshot", { ...compozy.transcriptSnapshotReset, entries: [] });
    expect(cached()?.entries).toHaveLength(0);
    emit("session_commands_changed", compozy.commandsChanged);
    emit("session_stopped", compozy.sessionStopped);
    expect(stream.state).toBe("stopped");
    expect(warn).not.toHaveBeenCalled();
    stream.stop();
  });

  it("when CompozyOS answers the session list, usage and turns, then the SPA reads them", async () => {
    const client = new QueryClient();
    const list = await client.fetchInfiniteQuery(sessionQueries.list());
    expect(loadedSessions(list).map((session) => session.id)).toContain(compozy.SESSION_ID);
    const usage = await client.fetchQuery(usageQueries.usage(ref));
    expect(usage.usage.context?.used).toBe(42_000);
    const turns = await client.fetchQuery(usageQueries.turns(ref));
    // CompozyOS sends no after figure; the example's only later reading is stamped
    // 14:03:05.2+02:00, before the compaction ended (14:02:39Z): in report order it is none.
    expect(turns?.compactions[0]).toMatchObject({ compaction_id: compozy.COMPACTION_ID });
    expect(turns?.compactions[0]).not.toHaveProperty("context_after");
  });
});
