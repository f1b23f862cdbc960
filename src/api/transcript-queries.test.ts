// @vitest-environment jsdom
import { QueryClient } from "@tanstack/react-query";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import type { Entry } from "../contract/transcript";
import { daemon, mockDaemon } from "../testing/msw";
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

/** The transcript route answers each read with the next page, newest first. */
function stubPages(...bodies: Record<string, unknown>[]) {
  daemon.use(
    http.get("/api/workspaces/w1/sessions/s1/transcript", () => {
      const body = bodies.shift();
      return body ? HttpResponse.json(body) : HttpResponse.json({}, { status: 500 });
    }),
  );
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index);

mockDaemon();

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
