import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Entry } from "../contract/transcript";
import type { TranscriptData } from "./transcript-cache";
import { loadOlderTranscript, transcriptQueries } from "./transcript-queries";

const ref = { workspaceId: "w1", sessionId: "s1" };

function entry(start: number): Entry {
  return {
    start_sequence: start,
    sequence: start,
    message: {
      id: `m${start}`,
      role: "assistant",
      parts: [{ type: "text", id: "p", text: `reply ${start}` }],
    },
  };
}

function page(starts: number[], extra: Record<string, unknown> = {}) {
  return {
    entries: starts.map(entry),
    epoch: 1,
    generation: 0,
    max_sequence: Math.max(...starts),
    has_older: true,
    next_before_sequence: Math.min(...starts),
    limit: starts.length,
    ...extra,
  };
}

function stubPages(...bodies: unknown[]) {
  const fetchMock = vi.fn(
    async () => new Response(JSON.stringify(bodies.shift()), { status: 200 }),
  );
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index);

afterEach(() => vi.unstubAllGlobals());

describe("loadOlderTranscript", () => {
  it("when an older page loads, then every entry already loaded keeps its object (no deep copy of the history)", async () => {
    stubPages(
      page(range(501, 700)),
      page(range(301, 500)),
      page(range(101, 300), { has_older: false }),
    );
    const client = new QueryClient();
    await client.fetchQuery(transcriptQueries.detail(ref));
    await loadOlderTranscript(client, ref);
    const key = transcriptQueries.key(ref.sessionId);
    const before = client.getQueryData<TranscriptData>(key)?.entries ?? [];
    expect(before).toHaveLength(400);
    await loadOlderTranscript(client, ref);
    const after = client.getQueryData<TranscriptData>(key);
    expect(after?.entries).toHaveLength(600);
    expect(after?.hasOlder).toBe(false);
    // The 400 loaded before now sit 200 places further down, and are the very same objects.
    for (const [index, loaded] of before.entries())
      expect(after?.entries[index + 200]).toBe(loaded);
  });
});
