// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, waitFor } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { expect, it } from "vitest";
import { daemon, mockDaemon } from "../testing/msw";
import { usageQueries } from "./usage-queries";
import { useUsageTurns } from "./use-usage-turns";

const ref = { workspaceId: "w1", sessionId: "s1" };

function Turns() {
  const turns = useUsageTurns(ref);
  return <p>{turns.data ? `${turns.data.turns.length} turns` : "no turns yet"}</p>;
}

const SESSION = "/api/workspaces/w1/sessions/s1";
const requests = mockDaemon(
  http.get(`${SESSION}/usage/turns`, () => HttpResponse.json({ turns: [], compactions: [] })),
);
const asked = () =>
  requests.map((request) => new URL(request.url).pathname.split("/").slice(-2).join("/"));

it("when a session opens, then per-turn usage is asked for only after the transcript's first page", async () => {
  let releaseTranscript: () => void = () => {};
  const transcriptAnswered = new Promise<void>((resolve) => {
    releaseTranscript = resolve;
  });
  daemon.use(
    http.get(`${SESSION}/transcript`, async () => {
      await transcriptAnswered;
      return HttpResponse.json({ entries: [], has_older: false });
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={client}>
      <Turns />
    </QueryClientProvider>,
  );
  await waitFor(() => expect(asked()).toEqual(["s1/transcript"]));
  // Held back, not merely late: the turns query is disabled until the transcript answers.
  const turns = client.getQueryCache().find({ queryKey: usageQueries.turns(ref).queryKey });
  expect(turns?.isDisabled()).toBe(true);
  expect(turns?.state.fetchStatus).toBe("idle");
  releaseTranscript();
  await waitFor(() => expect(view.container).toHaveTextContent("0 turns"));
  expect(asked()).toEqual(["s1/transcript", "usage/turns"]);
});

it("when the transcript cannot be read, then per-turn usage is still asked for", async () => {
  daemon.use(
    http.get(`${SESSION}/transcript`, () =>
      HttpResponse.json({ error: "boom", code: "internal" }, { status: 500 }),
    ),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={client}>
      <Turns />
    </QueryClientProvider>,
  );
  await waitFor(() => expect(view.container).toHaveTextContent("0 turns"));
});
