// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, renderHook, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { beforeEach, describe, expect, it } from "vitest";
import { sessionQueries } from "../../api/session-queries";
import type { Session } from "../../contract/session";
import { daemon, mockDaemon } from "../../testing/msw";
import { Composer } from "./composer";
import { DRAFTS_STORAGE_KEY, rehydrateDrafts, useDraftActions } from "./draft-store";

const ref = { workspaceId: "w1", sessionId: "s1" };

function session(overrides: Partial<Session> = {}): Session {
  return {
    id: "s1",
    workspace_id: "w1",
    agent_name: "demo",
    state: "active",
    available_commands: [],
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
    ...overrides,
  };
}

/** `status: 0` is a request that never reached the daemon. */
type Reply = { status: number; body: object | null };

/** CompozyOS's answer to a prompt it took (the JSON form; a started turn may stream instead). */
function accepted(id = "m1") {
  return {
    status: 202,
    body: {
      prompt: {
        status: "queued",
        delivery: "queued",
        message_id: id,
        idempotency_key: `key-${id}`,
        replayed: false,
        queued: true,
      },
    },
  };
}
let replies: Reply[];

const SESSION = "/api/workspaces/w1/sessions/s1";
/** The next reply a prompt or a cancel gets; with none left, the session as it is. */
const nextReply = () => {
  const reply = replies.shift();
  if (reply?.status === 0) return HttpResponse.error();
  const { status, body } = reply ?? { status: 200, body: { session: session() } };
  return HttpResponse.json(body, { status });
};
const requests = mockDaemon(
  http.post(`${SESSION}/prompt`, nextReply),
  http.post(`${SESSION}/prompt/cancel`, nextReply),
  http.get(SESSION, () => HttpResponse.json({ session: session() })),
  // The composer also reads the queue and the agent's commands: none of either.
  http.get(`${SESSION}/prompt/queue`, () => HttpResponse.json({ inputs: [] })),
  http.get(`${SESSION}/commands`, () => HttpResponse.json({ commands: [], revision: "r0" })),
);

function renderComposer(current: Session = session(), offline = false) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(sessionQueries.detail(ref).queryKey, { session: current });
  return render(
    <QueryClientProvider client={client}>
      <Composer session={ref} offline={offline} />
    </QueryClientProvider>,
  );
}

beforeEach(async () => {
  const { result, unmount } = renderHook(() => useDraftActions());
  act(() => result.current.draftSent("s1"));
  unmount();
  localStorage.clear();
  replies = [];
});

function postsTo(suffix: string) {
  return requests.filter(
    (request) => request.method === "POST" && new URL(request.url).pathname.endsWith(suffix),
  );
}

const bodiesOf = (posts: readonly Request[]) =>
  Promise.all(posts.map((post) => post.json() as Promise<Record<string, unknown>>));

describe("Composer and a slow daemon", () => {
  it("when the next message is typed before the first send is accepted, then it is kept", async () => {
    const user = userEvent.setup();
    let accept: () => void = () => {};
    daemon.use(
      http.post(`${SESSION}/prompt`, async () => {
        await new Promise<void>((resolve) => (accept = resolve));
        const { status, body } = accepted();
        return HttpResponse.json(body, { status });
      }),
    );
    renderComposer();
    const box = screen.getByRole("combobox", { name: "Message" });
    await user.type(box, "first{Control>}{Enter}{/Control}");
    await user.clear(box);
    await user.type(box, "second");
    await waitFor(() => expect(postsTo("/prompt")).toHaveLength(1));
    accept();
    await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeEnabled());
    expect(box).toHaveValue("second");
  });
});

describe("Composer and the keyboard", () => {
  it("when Escape is pressed while a turn runs, then the turn is cancelled once", async () => {
    const user = userEvent.setup();
    replies.push({ status: 202, body: { session_id: "s1", status: "accepted" } });
    renderComposer(session({ activity: { turn_id: "t1" } }));
    await user.click(screen.getByRole("combobox", { name: "Message" }));
    await user.keyboard("{Escape}");
    await waitFor(() => expect(postsTo("/cancel")).toHaveLength(1));
    expect(screen.getByRole("combobox", { name: "Message" })).toHaveFocus();
  });

  it("when Escape is pressed with no turn running, then nothing is cancelled", async () => {
    const user = userEvent.setup();
    renderComposer();
    await user.click(screen.getByRole("combobox", { name: "Message" }));
    await user.keyboard("{Escape}");
    expect(postsTo("/cancel")).toHaveLength(0);
  });

  it("while the daemon is unreachable, then Send and Stop wait and the hint says why", async () => {
    const user = userEvent.setup();
    renderComposer(session({ activity: { turn_id: "t1" } }), true);
    await user.type(screen.getByRole("combobox", { name: "Message" }), "kept");
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Stop" })).toBeDisabled();
    expect(screen.getByText("Waiting for the daemon to come back…")).toBeVisible();
    await user.keyboard("{Escape}");
    expect(postsTo("/cancel")).toHaveLength(0);
  });
});

describe("Composer", () => {
  it("sends the draft with Send and clears it once accepted", async () => {
    const user = userEvent.setup();
    replies.push(accepted());
    renderComposer();
    const box = screen.getByRole("combobox", { name: "Message" });
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
    await user.type(box, "Hello agent");
    await user.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(box).toHaveValue(""));
    // Send is disabled again (empty draft): focus waits in the text area, not on <body>.
    expect(box).toHaveFocus();
    const [body] = await bodiesOf(postsTo("/prompt"));
    expect(body).toEqual({
      message: "Hello agent",
      message_id: expect.any(String),
      idempotency_key: expect.any(String),
    });
    expect(body?.message_id).not.toBe(body?.idempotency_key);
  });

  it("sends with Ctrl+Enter and with Cmd+Enter", async () => {
    const user = userEvent.setup();
    replies.push(accepted("m1"), accepted("m2"));
    renderComposer();
    const box = screen.getByRole("combobox", { name: "Message" });
    await user.type(box, "one{Control>}{Enter}{/Control}");
    await waitFor(() => expect(box).toHaveValue(""));
    await user.type(box, "two{Meta>}{Enter}{/Meta}");
    await waitFor(() => expect(postsTo("/prompt")).toHaveLength(2));
    await user.type(box, "{Enter}");
    expect(postsTo("/prompt")).toHaveLength(2);
  });

  it("shows the daemon's refusal inline, in plain words, and keeps the draft", async () => {
    const user = userEvent.setup();
    replies.push({
      status: 409,
      body: { error: "session: prompt already in progress", code: "session_busy" },
    });
    renderComposer();
    const box = screen.getByRole("combobox", { name: "Message" });
    await user.type(box, "again");
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The agent is still working on a turn. Try again when it ends, or stop it first.",
    );
    expect(screen.getByRole("alert")).not.toHaveTextContent("session:");
    expect(box).toHaveValue("again");
  });

  it("when a busy refusal's turn ends, then the refusal goes away", async () => {
    const user = userEvent.setup();
    replies.push({
      status: 409,
      body: { error: "session: prompt already in progress", code: "session_busy" },
    });
    const running = session({ activity: { turn_id: "t1", turn_source: "user" } });
    // Our copy shows no turn when Send is pressed (another tab started it): the refusal
    // follows the turn that the session then shows, and goes when it ends.
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(sessionQueries.detail(ref).queryKey, { session: session() });
    render(
      <QueryClientProvider client={client}>
        <Composer session={ref} />
      </QueryClientProvider>,
    );
    await user.type(screen.getByRole("combobox", { name: "Message" }), "again");
    await user.click(screen.getByRole("button", { name: "Send" }));
    await screen.findByRole("alert");
    // The cache notifies on the next tick: let each state render.
    const show = (next: Session) =>
      act(async () => {
        client.setQueryData(sessionQueries.detail(ref).queryKey, { session: next });
        await new Promise((resolve) => setTimeout(resolve, 0));
      });
    await show(running);
    expect(screen.getByRole("alert")).toBeVisible();
    await show(session());
    await waitFor(() => expect(screen.queryByRole("alert")?.textContent ?? null).toBeNull());
  });

  it("offers Stop only while a turn runs, and Stop cancels it", async () => {
    const user = userEvent.setup();
    replies.push({ status: 200, body: { session_id: "s1", outcome: "cancelled", turn_id: "t1" } });
    const { unmount } = renderComposer();
    expect(screen.queryByRole("button", { name: "Stop" })).toBeNull();
    unmount();
    renderComposer(session({ activity: { turn_id: "t1", turn_source: "user" } }));
    await user.click(screen.getByRole("button", { name: "Stop" }));
    await waitFor(() => expect(postsTo("/prompt/cancel")).toHaveLength(1));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("keeps the draft per session across a reload", async () => {
    const user = userEvent.setup();
    const { unmount } = renderComposer();
    await user.type(screen.getByRole("combobox", { name: "Message" }), "half a thought");
    unmount();
    const stored = localStorage.getItem(DRAFTS_STORAGE_KEY) ?? "";
    expect(stored).toContain("half a thought");
    // A reload: memory is gone, only local storage remains.
    const { result, unmount: drop } = renderHook(() => useDraftActions());
    act(() => result.current.draftSent("s1"));
    drop();
    localStorage.setItem(DRAFTS_STORAGE_KEY, stored);
    await act(() => rehydrateDrafts());
    renderComposer();
    expect(screen.getByRole("combobox", { name: "Message" })).toHaveValue("half a thought");
  });

  it("holds Send while the session is not active, saying why, and keeps the draft editable", async () => {
    const user = userEvent.setup();
    renderComposer(session({ state: "starting" }));
    const box = screen.getByRole("combobox", { name: "Message" });
    await user.type(box, "too early{Control>}{Enter}{/Control}");
    expect(box).toHaveValue("too early");
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
    expect(box).toHaveAccessibleDescription("Session is starting");
    expect(postsTo("/prompt")).toHaveLength(0);
  });

  it("when the session is stopped, then it says sending resumes it, offers no Start, and sends", async () => {
    const user = userEvent.setup();
    replies.push(accepted());
    renderComposer(session({ state: "stopped" }));
    expect(
      screen.getByText("This session is stopped. Sending a message resumes it."),
    ).toBeVisible();
    expect(screen.queryByRole("button", { name: /start/i })).toBeNull();
    await user.type(screen.getByRole("combobox", { name: "Message" }), "wake up");
    await user.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(postsTo("/prompt")).toHaveLength(1));
    expect(postsTo("/start")).toHaveLength(0);
  });

  it("when a send fails on the way and is tried again, then every attempt carries the same identity", async () => {
    const user = userEvent.setup();
    // Three failures: the first try and its two automatic retries; then "Try again" succeeds.
    replies.push(
      { status: 0, body: null },
      { status: 0, body: null },
      { status: 502, body: { error: "upstream unavailable", code: "bad_gateway" } },
      accepted(),
    );
    renderComposer();
    const box = screen.getByRole("combobox", { name: "Message" });
    await user.type(box, "only once, please");
    await user.click(screen.getByRole("button", { name: "Send" }));
    const again = await screen.findByRole("button", { name: "Try again" }, { timeout: 8_000 });
    expect(box).toHaveValue("only once, please");
    await user.click(again);
    await waitFor(() => expect(box).toHaveValue(""));
    const bodies = await bodiesOf(postsTo("/prompt"));
    expect(bodies).toHaveLength(4);
    expect(new Set(bodies.map((body) => body.idempotency_key)).size).toBe(1);
    expect(new Set(bodies.map((body) => body.message_id)).size).toBe(1);
  });

  it("when the draft changes after a failed send, or a new send follows, then it gets a new identity", async () => {
    const user = userEvent.setup();
    replies.push(
      { status: 503, body: { error: "busy", code: "unavailable" } },
      accepted("m1"),
      accepted("m2"),
    );
    renderComposer();
    const box = screen.getByRole("combobox", { name: "Message" });
    await user.type(box, "first");
    await user.click(screen.getByRole("button", { name: "Send" }));
    await screen.findByRole("button", { name: "Try again" }, { timeout: 8_000 });
    await user.type(box, " (edited)");
    await user.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(box).toHaveValue(""));
    await user.type(box, "first (edited){Control>}{Enter}{/Control}");
    await waitFor(() => expect(postsTo("/prompt")).toHaveLength(3));
    const keys = (await bodiesOf(postsTo("/prompt"))).map((body) => body.idempotency_key);
    expect(new Set(keys).size).toBe(3);
  });

  it("when the daemon answers a send with the turn's event stream, then the send counts as accepted", async () => {
    const user = userEvent.setup();
    // Only the send streams (the composer also reads the session's commands).
    daemon.use(
      http.post(
        `${SESSION}/prompt`,
        () =>
          new HttpResponse("data: {}\n\n", {
            status: 200,
            headers: { "Content-Type": "text/event-stream", "x-vercel-ai-ui-message-stream": "v1" },
          }),
      ),
    );
    renderComposer();
    const box = screen.getByRole("combobox", { name: "Message" });
    await user.type(box, "stream me");
    await user.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(box).toHaveValue(""));
    expect(screen.queryByRole("alert")).toBeNull();
  });
});

describe("Composer on a continued session", () => {
  it("when the session was continued, then there is no message box but a link to where it goes on", () => {
    const AT = "2026-01-01T00:00:00Z";
    renderComposer(
      session({
        state: "stopped",
        derivation: {
          derived: [
            { session_id: "s2", kind: "continue", name: "Billing (continued)", created_at: AT },
          ],
          continued_in: "s2",
        },
      }),
    );
    expect(screen.queryByRole("combobox", { name: "Message" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Send" })).toBeNull();
    expect(screen.getByText(/so it is read-only: send there to go on/)).toBeVisible();
    expect(screen.getByRole("link", { name: "Billing (continued)" })).toHaveAttribute(
      "href",
      "/w/w1/s/s2",
    );
  });
});
