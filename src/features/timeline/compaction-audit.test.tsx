// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, renderHook, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { beforeEach, describe, expect, it } from "vitest";
import type { CompactionAudit } from "../../audit/types";
import type { CompactionItem, Entry } from "../../contract/transcript";
import { COMPOSER_INPUT_ID } from "../../lib/focus-request";
import { auditItem, lossyAudit } from "../../testing/audits";
import { daemon, mockDaemon, requestsTo } from "../../testing/msw";
import { CompactionRow } from "./compaction-row";
import { useDraft, useDraftActions } from "./draft-store";
import { TimelineSession } from "./timeline-session";
import { useJumpTarget, useTimelineActions } from "./timeline-store";

const ref = { workspaceId: "w1", sessionId: "s1" };
const SESSION = "/api/workspaces/w1/sessions/s1";
const AUDIT_PATH = `${SESSION}/compactions/c2/audit`;
/** What the audit route answers; `undefined` is a daemon without it (its plain 404). */
let audit: { status: number; body: unknown } | undefined;

const requests = mockDaemon(
  http.get(AUDIT_PATH, () =>
    audit
      ? HttpResponse.json(audit.body as object, { status: audit.status })
      : HttpResponse.json({ error: "no such endpoint", code: "not_found" }, { status: 404 }),
  ),
);

beforeEach(() => {
  audit = { status: 200, body: lossyAudit() };
  const { result, unmount } = renderHook(() => ({
    timeline: useTimelineActions(),
    drafts: useDraftActions(),
  }));
  act(() => {
    result.current.timeline.sessionOpened();
    result.current.drafts.draftSent("s1");
  });
  unmount();
});

const completed: CompactionItem = {
  kind: "compaction",
  compaction_id: "c2",
  status: "completed",
  summary: "We refactored src/billing.ts and README.md.",
  started_at: "2026-11-30T08:42:00.000Z",
  ended_at: "2026-11-30T08:42:12.000Z",
};

function Probe() {
  const draft = useDraft("s1");
  const target = useJumpTarget();
  return (
    <>
      <label htmlFor={COMPOSER_INPUT_ID}>Message</label>
      <textarea id={COMPOSER_INPUT_ID} value={draft} readOnly />
      <output aria-label="jump target">{target ?? ""}</output>
    </>
  );
}

function renderRow(item: CompactionItem = completed, ...others: CompactionItem[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <TimelineSession.Provider value={ref}>
        <CompactionRow item={item} />
        {others.map((other) => (
          <CompactionRow key={other.compaction_id} item={other} />
        ))}
        <Probe />
      </TimelineSession.Provider>
    </QueryClientProvider>,
  );
}

async function openInventory(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole("button", { name: /What the summary kept/ }));
  return screen.findByRole("region", { name: /What the summary of the compaction at .* kept/ });
}

describe("the audit on a completed compaction row", () => {
  it("when the audit loads, then the row gives the span, the counts and the pinned message it lost, and jumps to the span's first turn", async () => {
    const user = userEvent.setup();
    renderRow();
    expect(await screen.findByText(/^Replaced turns 3–17 · 42 messages ·/)).toBeInTheDocument();
    expect(screen.getByText("A message you pinned is not in the summary.")).toBeInTheDocument();
    // The inventory is a lazily loaded chunk (ADR 0211).
    expect(
      await screen.findByRole(
        "button",
        { name: "What the summary kept · kept 1 of 5 · 4 dropped" },
        { timeout: 5_000 },
      ),
    ).toHaveAttribute("aria-expanded", "false");
    await user.click(screen.getByRole("button", { name: "Go to turn 3" }));
    expect(screen.getByRole("status", { name: "jump target" })).toHaveTextContent("m-1");
    expect(requestsTo(requests, AUDIT_PATH, "GET")).toHaveLength(1);
  });

  it("when the inventory opens, then dropped items come first, pinned on top, each chosen, with why; labels render as text, never HTML", async () => {
    const user = userEvent.setup();
    const { container } = renderRow();
    const region = await openInventory(user);
    const boxes = within(region).getAllByRole("checkbox");
    expect(boxes).toHaveLength(4);
    for (const box of boxes) expect(box).toBeChecked();
    expect(boxes[0]).toHaveAccessibleName(/^Pinned message.*Never edit files under src\/gen/);
    expect(boxes[0]).toHaveAccessibleDescription("1 of 5 distinctive words");
    expect(boxes[1]).toHaveAccessibleName(/Your last request/);
    expect(within(region).getByText(/<b>fetchUser<\/b>/)).toBeInTheDocument();
    expect(container.querySelector("b")).toBeNull();
    expect(within(region).getByText("Kept (1)")).toBeInTheDocument();
    expect(within(region).getByText("the summary names README.md")).toBeInTheDocument();
  });

  it("when the person unchooses one item with the keyboard and presses Remind the agent, then the composer holds an editable prompt of the rest, quoted, and has focus; nothing is sent", async () => {
    const user = userEvent.setup();
    renderRow();
    const region = await openInventory(user);
    const path = within(region).getByRole("checkbox", { name: /File.*src\/auth\.ts/ });
    path.focus();
    await user.keyboard(" ");
    expect(path).not.toBeChecked();
    expect(within(region).getByText(/3 of 4 chosen/)).toBeInTheDocument();
    within(region).getByRole("button", { name: "Remind the agent" }).focus();
    await user.keyboard("{Enter}");
    const composer = screen.getByRole("textbox", { name: "Message" });
    expect(composer).toHaveFocus();
    const prompt = (composer as HTMLTextAreaElement).value;
    expect(prompt).toContain("> Never edit files under src/gen/: they are generated.");
    expect(prompt).toContain(
      "> Now add the **retry** to <b>fetchUser</b>, keep `maxRetries` at 3.",
    );
    expect(prompt).toContain("- The command `npm test -- auth`");
    expect(prompt).not.toContain("src/auth.ts");
    expect(prompt.indexOf("I pinned this")).toBeLessThan(prompt.indexOf("My last request"));
    expect(requestsTo(requests, `${SESSION}/prompt`)).toHaveLength(0);
  });

  it("when nothing is chosen, then Remind the agent is unavailable; the pinned flag's button offers only the pins", async () => {
    const user = userEvent.setup();
    renderRow();
    const region = await openInventory(user);
    for (const box of within(region).getAllByRole("checkbox")) await user.click(box);
    expect(within(region).getByRole("button", { name: "Remind the agent" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Remind the agent of it" }));
    const prompt = (screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement).value;
    expect(prompt).toContain("> Never edit files under src/gen/");
    expect(prompt).not.toContain("fetchUser");
  });

  it("when the summary is not readable, then the row says nothing can be checked and lists nothing as dropped", async () => {
    const user = userEvent.setup();
    audit = {
      status: 200,
      body: lossyAudit({
        summary_readable: false,
        items: [
          auditItem({ key: "path:src/auth.ts", status: "unchecked", why: "no summary to check" }),
        ],
        counts: { total: 1, kept: 0, dropped: 0, unchecked: 1 },
        pinned_dropped: [],
      }),
    };
    renderRow({ ...completed, summary: undefined } as CompactionItem);
    expect(
      await screen.findByText("The summary is not readable, so nothing can be checked."),
    ).toBeInTheDocument();
    const region = await openInventory(user);
    expect(within(region).getByText("Not checked")).toBeInTheDocument();
    expect(within(region).queryByText("Dropped")).toBeNull();
    expect(within(region).queryByRole("checkbox")).toBeNull();
  });

  it("when the audit fails, then the row says so and Try again asks again", async () => {
    const user = userEvent.setup();
    audit = { status: 500, body: { error: "internal error", code: "internal" } };
    renderRow();
    expect(await screen.findByText(/Couldn't check what the summary kept/)).toBeInTheDocument();
    audit = { status: 200, body: lossyAudit() };
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText(/^Replaced turns 3–17 · 42 messages ·/)).toBeInTheDocument();
  });

  it("when the daemon sends a payload that breaks the schema, then it is an error, not a render", async () => {
    audit = { status: 200, body: { ...lossyAudit(), items: [{ key: 1 }] } };
    renderRow();
    expect(await screen.findByText(/Couldn't check what the summary kept/)).toBeInTheDocument();
  });

  it("when a compaction is not completed, then no audit is asked for", async () => {
    // Beside a completed one: once its audit is asked for, the failed row has had its chance.
    const c3 = `${SESSION}/compactions/c3/audit`;
    daemon.use(http.get(c3, () => HttpResponse.json(lossyAudit())));
    renderRow(
      { ...completed, status: "failed", error: "overloaded" },
      { ...completed, compaction_id: "c3" },
    );
    await waitFor(() => expect(requestsTo(requests, c3)).toHaveLength(1));
    expect(requests).toHaveLength(1);
  });
});

describe("hostile audits", () => {
  it("when a label is 1 MB of Markdown and HTML and a span had 10,000 paths (the daemon lists 500), then the label folds, 40 items show, Show all offers the rest, and the unlisted are counted", async () => {
    const user = userEvent.setup();
    const huge = `<script>alert(1)</script> **bold** ${"x".repeat(1_000_000)}`;
    const paths = Array.from({ length: 500 }, (_, index) =>
      auditItem({ key: `path:src/f${index}.ts` }),
    );
    audit = {
      status: 200,
      body: lossyAudit({
        items: [
          auditItem({ key: "instruction:m-1", kind: "instruction", label: huge, by_person: true }),
          ...paths,
        ],
        counts: { total: 10_001, kept: 0, dropped: 10_001, unchecked: 0 },
        omitted: 9_500,
        pinned_dropped: [],
      }),
    };
    const { container } = renderRow();
    await user.click(
      await screen.findByRole("button", { name: /What the summary kept/ }, { timeout: 5_000 }),
    );
    const region = await screen.findByRole("region", {
      name: /What the summary of the compaction at .* kept/,
    });
    expect(within(region).getAllByRole("checkbox")).toHaveLength(40);
    expect(container.querySelector("script")).toBeNull();
    const label = within(region).getByText(/^<script>alert\(1\)<\/script> \*\*bold\*\*/);
    expect(label.textContent?.length).toBeLessThanOrEqual(280);
    await user.click(within(region).getByRole("button", { name: "Show all 1,000,035 characters" }));
    expect(label.textContent?.length).toBe(huge.length);
    expect(within(region).getByRole("button", { name: "Show all 501 items" })).toBeInTheDocument();
    expect(
      within(region).getByText(/^9,500 more items were checked but are not listed/),
    ).toBeInTheDocument();
    // Every listed dropped item is chosen, the ones not shown yet too.
    expect(within(region).getByText(/^501 of 501 chosen/)).toBeInTheDocument();
  });
});

describe("Compare with the previous summary", () => {
  it("when there is a previous compaction, then the comparison lists what it kept and this one lost, and a word diff", async () => {
    const user = userEvent.setup();
    const withPrevious: CompactionAudit = lossyAudit({
      previous: {
        compaction_id: "c1",
        summary: "We refactored src/auth.ts and README.md.",
        lost: [
          auditItem({
            key: "path:src/auth.ts",
            why: "the previous summary kept it; now the summary names neither",
          }),
        ],
      },
    });
    audit = { status: 200, body: withPrevious };
    renderRow();
    await user.click(
      await screen.findByRole("button", { name: /Compare with the previous summary · 1 lost/ }),
    );
    const region = await screen.findByRole("region", { name: /against the previous one/ });
    expect(within(region).getByText("Kept last time, not this time (1)")).toBeInTheDocument();
    expect(within(region).getByText("src/auth.ts")).toBeInTheDocument();
    // The word diff runs in the audit-jobs chunk, imported on first use (ADR 0211).
    const diff = await within(region).findByRole(
      "region",
      { name: "Word changes between the summaries" },
      { timeout: 5_000 },
    );
    expect(diff.querySelector("del")).toHaveTextContent("[removed: auth]");
    expect(diff.querySelector("ins")).toHaveTextContent("[added: billing]");
  });

  it("when it is the session's first compaction, then there is nothing to compare", async () => {
    renderRow();
    await screen.findByText(/^Replaced turns 3–17 · 42 messages ·/);
    expect(screen.queryByRole("button", { name: /Compare with the previous summary/ })).toBeNull();
  });
});

function entry(sequence: number, message: Entry["message"]): Entry {
  return { start_sequence: sequence, sequence, message };
}

describe("against a daemon without the audit (CompozyOS)", () => {
  it("when the route answers 404, then the audit is computed from the transcript pages and pins, and the row says it was checked in the browser", async () => {
    const user = userEvent.setup();
    audit = undefined;
    const entries = [
      entry(1, {
        id: "u1",
        role: "user",
        metadata: { turn_id: "t1" },
        parts: [{ type: "text", text: "Never edit anything under src/generated/api.ts please." }],
      }),
      entry(2, { id: "a1", role: "assistant", parts: [{ type: "text", text: "Understood." }] }),
      entry(3, {
        id: "u2",
        role: "user",
        metadata: { turn_id: "t2" },
        parts: [{ type: "text", text: "Now update README.md with the install steps." }],
      }),
      entry(4, {
        id: "cmp",
        role: "system",
        parts: [{ type: "data-compozy-compaction", id: "c2", data: completed }],
      }),
    ];
    daemon.use(
      http.get(`${SESSION}/transcript`, () =>
        HttpResponse.json({
          entries,
          epoch: 1,
          generation: 1,
          max_sequence: 4,
          has_older: false,
          limit: 1000,
        }),
      ),
      http.get(`${SESSION}/pins`, () =>
        HttpResponse.json({ pins: [{ entry_id: "u1", pinned_at: "2026-11-30T08:00:00.000Z" }] }),
      ),
    );
    renderRow();
    expect(await screen.findByText(/^Replaced turns 1–2 · 3 messages ·/)).toBeInTheDocument();
    expect(screen.getByText(/checked in this browser/)).toBeInTheDocument();
    expect(screen.getByText("A message you pinned is not in the summary.")).toBeInTheDocument();
    const region = await openInventory(user);
    expect(
      within(region).getByRole("checkbox", { name: /^File.*src\/generated\/api\.ts/ }),
    ).toBeChecked();
  });
});
