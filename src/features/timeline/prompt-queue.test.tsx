// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { queueQueries } from "../../api/queue-queries";
import { sessionQueries } from "../../api/session-queries";
import type { Session } from "../../contract/session";
import { daemon, mockDaemon } from "../../testing/msw";
import { PromptQueue } from "./prompt-queue";
import { QUEUE_COPY } from "./prompt-queue-view";

const ref = { workspaceId: "w1", sessionId: "s1" };
const waiting = {
  id: "qin_1",
  session_id: "s1",
  text: "first words",
  mode: "queue",
  delivery: "after_turn",
  status: "queued",
  enqueued_at: "2026-01-01T00:00:00Z",
  queue_generation: 1,
};

const session: Session = {
  id: "s1",
  workspace_id: "w1",
  agent_name: "demo",
  state: "active",
  available_commands: [],
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
};

const SESSION = "/api/workspaces/w1/sessions/s1";
const QUEUE = `${SESSION}/prompt/queue`;
// A saved edit re-reads the queue and the session.
const requests = mockDaemon(
  http.get(QUEUE, () => HttpResponse.json({ inputs: [waiting] })),
  http.get(SESSION, () => HttpResponse.json({ session })),
);

function renderQueue(extra: Partial<Session> = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(queueQueries.key("s1"), { inputs: [waiting] });
  client.setQueryData(sessionQueries.detail(ref).queryKey, { session: { ...session, ...extra } });
  return render(
    <QueryClientProvider client={client}>
      <PromptQueue session={ref} offline={false} />
    </QueryClientProvider>,
  );
}

const sent = (method: string) => requests.filter((request) => request.method === method);
const puts = () => sent("PUT");

describe("PromptQueue", () => {
  it("when an edit is emptied and saved, then it says why and sends nothing; Escape leaves the edit", async () => {
    const user = userEvent.setup();
    renderQueue();
    expect(screen.getByRole("region", { name: "1 queued message" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Edit queued message 1" }));
    const editor = screen.getByRole("textbox", { name: "Edit queued message 1" });
    await user.clear(editor);
    await user.type(editor, "   ");
    await user.click(screen.getByRole("button", { name: "Save queued message 1" }));
    expect(editor).toHaveAttribute("aria-invalid", "true");
    expect(editor).toHaveAccessibleDescription(QUEUE_COPY.emptyEdit);
    expect(puts()).toHaveLength(0);
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("textbox")).not.toBeInTheDocument();
    expect(screen.getByText("first words")).toBeInTheDocument();
  });

  it("when no turn runs, then Send now says why it waits and sends nothing", async () => {
    const user = userEvent.setup();
    renderQueue({ state: "stopped" });
    const sendNow = screen.getByRole("button", { name: "Send now queued message 1" });
    expect(sendNow).toHaveAttribute("aria-disabled", "true");
    expect(sendNow).toHaveAccessibleDescription(QUEUE_COPY.sendNowWaits);
    expect(screen.getByText(QUEUE_COPY.whileStopped)).toBeInTheDocument();
    await user.click(sendNow);
    expect(sent("POST")).toHaveLength(0);
  });

  it("when an edit is saved, then its words go to the daemon with a fresh identity", async () => {
    const user = userEvent.setup();
    renderQueue();
    await user.click(screen.getByRole("button", { name: "Edit queued message 1" }));
    const editor = screen.getByRole("textbox", { name: "Edit queued message 1" });
    await user.type(editor, " and more");
    daemon.use(
      http.put(`${QUEUE}/:id`, () =>
        HttpResponse.json({ input: { ...waiting, text: "first words and more" } }),
      ),
    );
    await user.keyboard("{Control>}{Enter}{/Control}");
    await waitFor(() => expect(puts()).toHaveLength(1));
    const [put] = puts();
    expect(new URL(put!.url).pathname).toBe(`${QUEUE}/qin_1`);
    expect(await put?.json()).toMatchObject({ text: "first words and more" });
    await waitFor(() => expect(screen.queryByRole("textbox")).not.toBeInTheDocument());
  });
});
