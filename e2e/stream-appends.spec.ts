// The SPA's own stream in real Chromium asks for append frames (ADR 0200): a reply streamed
// at an agent's pace (the demo agent at speed 1: 48-character chunks, 40 ms apart) reaches
// the page mostly as `entry_append` frames, costs the page's stream less than twice the
// reply's own bytes, and is shown whole, on one connection (no gap made it read again).
import { demoAgentFlag } from "./daemon";
import { expect, test } from "./fixtures";

test.use({ daemonArgs: ["--agent", demoAgentFlag().replace("--speed 0", "--speed 1")] });

test("when a reply streams at an agent's pace, then the page follows it with append frames on one connection", async ({
  tideline,
}) => {
  const { urls: streams, frames } = await tideline.recordStreams();

  const session = await tideline.createSession("Appends");
  await tideline.open(session);
  // The stream's first frame: a snapshot, or a delta after the page already read (ADR 0218).
  await expect
    .poll(() => frames.some((f) => /^transcript_(snapshot|delta)$/.test(f.event)))
    .toBe(true);
  const before = frames.length;
  await tideline.send("Tell me about the tide tables, please");
  await tideline.waitIdle(session);

  const { body: transcript } = await tideline.api<{
    entries: { message: { role: string; parts: { type: string; text?: string }[] } }[];
  }>("GET", `/api/workspaces/${session.workspace_id}/sessions/${session.id}/transcript`);
  const reply = transcript.entries
    .filter((entry) => entry.message.role === "assistant")
    .flatMap((entry) => entry.message.parts)
    .filter((part) => part.type === "text")
    .at(-1)?.text;
  expect(reply?.length ?? 0).toBeGreaterThan(100);
  // Its last words, as rendered (Markdown marks aside): the page holds the whole reply.
  const lastWords = (reply ?? "").trim().replace(/[*_`]/g, "").slice(-30);
  await expect(tideline.timeline.getByText(lastWords).first()).toBeVisible();

  const live = frames.slice(before);
  const appends = live.filter((f) => f.event === "entry_append");
  expect(appends.length).toBeGreaterThan(0);
  const replyBytes = new Blob([reply ?? ""]).size;
  const appendBytes = appends.reduce((sum, f) => sum + f.bytes, 0);
  // The append frames' data (SSE lines aside) for the reply, against the reply itself.
  expect(appendBytes).toBeLessThan(2 * replyBytes);
  expect(streams.filter((url) => url.includes("tideline_append=1"))).toHaveLength(1);
  expect(streams).toHaveLength(1);
  await tideline.screenshot("reply-followed-with-append-frames");
});
