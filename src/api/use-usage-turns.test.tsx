// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, waitFor } from "@testing-library/react";
import { afterEach, expect, it, vi } from "vitest";
import { useUsageTurns } from "./use-usage-turns";

const ref = { workspaceId: "w1", sessionId: "s1" };

function Turns() {
  const turns = useUsageTurns(ref);
  return <p>{turns.data ? `${turns.data.turns.length} turns` : "no turns yet"}</p>;
}

afterEach(() => vi.unstubAllGlobals());

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

it("when a session opens, then per-turn usage is asked for only after the transcript's first page", async () => {
  let releaseTranscript: () => void = () => {};
  const transcriptAnswered = new Promise<void>((resolve) => {
    releaseTranscript = resolve;
  });
  const asked: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      asked.push(new URL(url, "http://x").pathname.split("/").slice(-2).join("/"));
      if (url.includes("/transcript")) {
        await transcriptAnswered;
        return json({ entries: [], has_older: false });
      }
      return json({ turns: [], compactions: [] });
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={client}>
      <Turns />
    </QueryClientProvider>,
  );
  await waitFor(() => expect(asked).toEqual(["s1/transcript"]));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(asked).toEqual(["s1/transcript"]);
  releaseTranscript();
  await waitFor(() => expect(view.container).toHaveTextContent("0 turns"));
  expect(asked).toEqual(["s1/transcript", "usage/turns"]);
});

it("when the transcript cannot be read, then per-turn usage is still asked for", async () => {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) =>
      url.includes("/transcript")
        ? json({ error: "boom", code: "internal" }, 500)
        : json({ turns: [], compactions: [] }),
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
