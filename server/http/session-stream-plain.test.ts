// A client that does not ask for append frames (CompozyOS's web, older Tideline builds) gets
// the stream it got before they existed, byte for byte. The fixture was recorded from the
// daemon before append frames were added (`UPDATE_STREAM_FIXTURE=1` records it again);
// only the ids, the epoch and the times that differ per run are masked.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startTestDaemon, type TestDaemon } from "../testing/daemon";
import { openRawStream, type RawStream } from "../testing/raw-stream";

const FIXTURE = join(import.meta.dirname, "../testing/fixtures/plain-stream-frames.sse");

type Update = Parameters<TestDaemon["ledger"]["recorder"]["recordUpdate"]>[2];

/** Text that grows, a new part, a tool whose terminal output grows, then a second message. */
const SCRIPT: Update[] = [
  {
    sessionUpdate: "agent_message_chunk",
    messageId: "m1",
    content: { type: "text", text: "Hello" },
  },
  ...[" there", ", wide", " world.\n", "Ünïcödé ✓ 🌊"].map(
    (text): Update => ({
      sessionUpdate: "agent_message_chunk",
      messageId: "m1",
      content: { type: "text", text },
    }),
  ),
  {
    sessionUpdate: "agent_thought_chunk",
    messageId: "m1",
    content: { type: "text", text: "thinking" },
  },
  {
    sessionUpdate: "agent_thought_chunk",
    messageId: "m1",
    content: { type: "text", text: " harder" },
  },
  {
    sessionUpdate: "tool_call",
    toolCallId: "t1",
    title: "Run ls",
    kind: "execute",
    status: "in_progress",
    rawInput: { command: "ls" },
  },
  ...["line 1\n", "line 2\n", "line 3\n"].map(
    (data): Update => ({
      sessionUpdate: "tool_call_update",
      toolCallId: "t1",
      _meta: { terminal_output_delta: { terminal_id: "term-1", data } },
    }),
  ),
  { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" },
  {
    sessionUpdate: "agent_message_chunk",
    messageId: "m2",
    content: { type: "text", text: "Done" },
  },
  { sessionUpdate: "agent_message_chunk", messageId: "m2", content: { type: "text", text: "." } },
];

function mask(text: string, ids: { session: string; workspace: string }): string {
  return text
    .replaceAll(ids.session, "<session>")
    .replaceAll(ids.workspace, "<workspace>")
    .replace(/"epoch":\d+/g, '"epoch":<epoch>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g, "<time>");
}

/**
 * Runs the script, one update at a time, each only once the plain stream has its frame (so
 * the batching is the same on every run), and returns what the plain stream received.
 */
async function recordPlainStream(
  daemon: TestDaemon,
  sideUrl?: (streamUrl: string) => string,
): Promise<string> {
  const base = await daemon.listen();
  const session = daemon.ledger.store.createSession({ workspaceId: daemon.ws, agentName: "none" });
  daemon.ledger.recorder.recordState(session.id, "active");
  const url = `${base}${daemon.sessionPath(session.id)}/stream`;
  const plain = await openRawStream(url);
  const side: RawStream | undefined = sideUrl ? await openRawStream(sideUrl(url)) : undefined;
  await plain.waitForText("event: session_commands_changed");
  for (const update of SCRIPT) {
    daemon.ledger.recorder.recordUpdate(session.id, "turn-1", update);
    await plain.waitForId(daemon.ledger.reader.maxSequence(session.id));
  }
  plain.close();
  side?.close();
  return mask(plain.text(), { session: session.id, workspace: daemon.ws });
}

describe("a client that did not ask for append frames", () => {
  let daemon: TestDaemon | undefined;
  afterEach(async () => {
    await daemon?.stop();
    daemon = undefined;
  });

  it("when a message, a tool and its output stream, then it receives today's frames, byte for byte", async () => {
    daemon = await startTestDaemon({ agents: [], keepaliveMs: 600_000 });
    const received = await recordPlainStream(daemon);
    if (process.env.UPDATE_STREAM_FIXTURE === "1") writeFileSync(FIXTURE, received);
    expect(existsSync(FIXTURE)).toBe(true);
    expect(received).toBe(readFileSync(FIXTURE, "utf8"));
    // Every change was a whole-entry delta: the fixture is what CompozyOS's web parses.
    expect(received).not.toContain("entry_append");
    expect(received.match(/^event: transcript_delta$/gm)?.length).toBe(SCRIPT.length);
  });

  it("when another client on the session asked for append frames, then this one's bytes are still today's", async () => {
    daemon = await startTestDaemon({ agents: [], keepaliveMs: 600_000 });
    const received = await recordPlainStream(daemon, (url) => `${url}?tideline_append=1`);
    expect(received).toBe(readFileSync(FIXTURE, "utf8"));
  });
});
