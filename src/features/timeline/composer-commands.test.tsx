// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, renderHook, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { beforeEach, describe, expect, it } from "vitest";
import { sessionQueries } from "../../api/session-queries";
import type { Session } from "../../contract/session";
import { mockDaemon, requestsTo } from "../../testing/msw";
import { Composer } from "./composer";
import { useDraftActions } from "./draft-store";

const ref = { workspaceId: "w1", sessionId: "s1" };
const session: Session = {
  id: "s1",
  workspace_id: "w1",
  agent_name: "claude",
  state: "active",
  available_commands: [],
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
};

function descriptor(name: string, description: string, hint?: string) {
  return {
    id: `agent:${name}`,
    canonical_token: `/${name}`,
    display_name: `/${name}`,
    description,
    lane: "agent",
    source: { kind: "acp", id: "claude", scope: "session" },
    placements: ["standalone"],
    available: true,
    ...(hint ? { input_hint: hint } : {}),
  };
}

const SESSION = "/api/workspaces/w1/sessions/s1";
const requests = mockDaemon(
  http.get(`${SESSION}/commands`, () =>
    HttpResponse.json({
      commands: [
        descriptor(
          "compact",
          "Clear conversation history but keep a summary",
          "<optional custom summarization instructions>",
        ),
        descriptor("context", "Show current context usage"),
        descriptor("review", "Review a pull request"),
      ],
      revision: "r1",
    }),
  ),
  http.post(`${SESSION}/prompt`, () =>
    HttpResponse.json({
      prompt: {
        status: "accepted",
        delivery: "direct",
        message_id: "m1",
        idempotency_key: "k1",
        replayed: false,
        new_turn_id: "t1",
      },
    }),
  ),
  http.get(SESSION, () => HttpResponse.json({ session })),
  http.get(`${SESSION}/prompt/queue`, () => HttpResponse.json({ inputs: [] })),
);

beforeEach(() => {
  const { result, unmount } = renderHook(() => useDraftActions());
  act(() => result.current.draftSent("s1"));
  unmount();
});

function renderComposer() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(sessionQueries.detail(ref).queryKey, { session });
  render(
    <QueryClientProvider client={client}>
      <Composer session={ref} />
    </QueryClientProvider>,
  );
}

const postsTo = (suffix: string) => requestsTo(requests, `${SESSION}${suffix}`, "POST");

describe("Composer commands", () => {
  it("when '/' is typed, then the session's commands (from GET …/commands) open as a menu", async () => {
    const user = userEvent.setup();
    renderComposer();
    const box = screen.getByRole("combobox", { name: "Message" });
    await user.type(box, "/");
    const options = await screen.findAllByRole("option");
    expect(options.map((option) => option.textContent)).toEqual([
      "/compact<optional custom summarization instructions>Clear conversation history but keep a summary",
      "/contextShow current context usage",
      "/reviewReview a pull request",
    ]);
    expect(requestsTo(requests, `${SESSION}/commands`, "GET").length).toBeGreaterThan(0);
  });

  it("when a command that takes input is picked, then its hint shows under the box", async () => {
    const user = userEvent.setup();
    renderComposer();
    const box = screen.getByRole("combobox", { name: "Message" });
    await user.type(box, "/com");
    await screen.findByRole("listbox", { name: "Commands" });
    await user.keyboard("{Enter}");
    expect(box).toHaveValue("/compact ");
    expect(box).toHaveAccessibleDescription(
      "/compact <optional custom summarization instructions>",
    );
  });

  it("when exactly /compact is sent, then it is a prompt with the typed text (the daemon runs it as Compact now)", async () => {
    const user = userEvent.setup();
    renderComposer();
    const box = screen.getByRole("combobox", { name: "Message" });
    await user.type(box, "/compact");
    await screen.findByRole("listbox");
    await user.keyboard("{Escape}{Control>}{Enter}{/Control}");
    await waitFor(() => expect(postsTo("/prompt")).toHaveLength(1));
    expect(await postsTo("/prompt")[0]?.json()).toMatchObject({ message: "/compact" });
    expect(postsTo("/compact")).toHaveLength(0);
    await waitFor(() => expect(box).toHaveValue(""));
  });

  it("when /compact carries instructions, then it is a prompt for the agent", async () => {
    const user = userEvent.setup();
    renderComposer();
    const box = screen.getByRole("combobox", { name: "Message" });
    await user.type(box, "/compact keep the API notes");
    await user.keyboard("{Control>}{Enter}{/Control}");
    await waitFor(() => expect(postsTo("/prompt")).toHaveLength(1));
    expect(postsTo("/compact")).toHaveLength(0);
  });
});
