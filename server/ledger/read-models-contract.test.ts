// Every read model of a realistic session passes its wire schema, and holds no key whose
// value is `undefined` (exactOptionalPropertyTypes: optional fields are absent).
import { afterEach, describe, expect, it } from "vitest";
import { DaemonEventList as EventList, DaemonHistory as History } from "../../src/contract/history";
import { DaemonEntry, DaemonTranscriptPage as TranscriptPage } from "../../src/contract/transcript";
import {
  contextAfterOf,
  DaemonUsageEnvelope as UsageEnvelope,
  UsageTurns,
} from "../../src/contract/usage";
import { frames, openTestSession, type TestSession } from "../testing/ledger-session";

let t: TestSession;
afterEach(() => t?.ledger.close());

function undefinedKeys(value: unknown, path = "$"): string[] {
  if (Array.isArray(value))
    return value.flatMap((item, index) => undefinedKeys(item, `${path}[${index}]`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, field]) =>
    field === undefined ? [`${path}.${key}`] : undefinedKeys(field, `${path}.${key}`),
  );
}

describe("read models against the wire contract", () => {
  it("when a session has every kind of row, then each read model parses and has no undefined keys", () => {
    t = openTestSession(":memory:", { contextWindows: { demo: 100_000 } });
    const { recorder, reader } = t.ledger;
    const s = t.sessionId;
    recorder.recordState(s, "starting");
    recorder.recordState(s, "active");
    recorder.recordInput(s, "turn-1", "Refactor the parser");
    recorder.recordUpdate(s, "turn-1", frames.thought("Plan first."));
    recorder.recordUpdate(s, "turn-1", {
      sessionUpdate: "plan",
      entries: [{ content: "Read", priority: "high", status: "in_progress" }],
    });
    recorder.recordUpdate(s, "turn-1", frames.tool("t1", { rawInput: { path: "parser.ts" } }));
    recorder.recordPermission(s, "turn-1", {
      tool_call_id: "t1",
      options: [{ optionId: "reject_once" }],
      outcome: { outcome: "selected", optionId: "reject_once" },
    });
    recorder.recordUpdate(
      s,
      "turn-1",
      frames.toolUpdate("t1", { status: "failed", rawOutput: { error: "denied" } }),
    );
    recorder.recordUpdate(s, "turn-1", {
      sessionUpdate: "agent_message_chunk",
      messageId: null,
      content: { type: "image", data: "AA", mimeType: "image/png" },
    });
    recorder.recordUpdate(s, "turn-1", frames.text("Done.", "m-1"));
    recorder.recordUpdate(s, "turn-1", frames.usage(40_000, 0, { amount: 0.02, currency: "USD" }));
    recorder.recordPromptCompleted(s, "turn-1", {
      stop_reason: "end_turn",
      input_tokens: 900,
      output_tokens: 100,
    });
    recorder.recordCompactionRequested(s, "turn-2", { command: "compact", requested_by: "web" });
    recorder.recordUpdate(s, "turn-2", frames.chunk("c1", "Parser refactor planned."));
    recorder.recordUpdate(
      s,
      "turn-2",
      frames.compaction("c1", "completed", { _meta: { vendor: 1 } }),
    );
    recorder.recordUpdate(s, "turn-2", frames.usage(5_000, 200_000));
    recorder.recordUpdate(s, null, { sessionUpdate: "session_info_update", title: "Parser" });
    recorder.recordUpdate(s, null, { sessionUpdate: "compaction_update", compactionId: "c2" });
    recorder.recordInvalidFrame(s, null, "{oops", "Unexpected token o");
    recorder.recordUpdate(s, null, frames.compaction("c3", "in_progress"));
    recorder.recordAgentExited(s, null, { code: null, signal: "SIGTERM" });
    recorder.recordState(s, "stopped", "signal SIGTERM");

    const page = reader.transcriptPage(s, { limit: 100 });
    const usage = { usage: reader.usage(s) };
    const turns = reader.usageTurns(s);
    const history = reader.history(s, { limit: 1000 });
    const events = reader.events(s, { limit: 1000 });
    expect(TranscriptPage.parse(page)).toBeTruthy();
    for (const entry of page.entries) expect(DaemonEntry.parse(entry)).toStrictEqual(entry);
    expect(UsageEnvelope.parse(usage)).toStrictEqual(usage);
    expect(UsageTurns.parse(turns)).toStrictEqual(turns);
    expect(History.parse(history)).toStrictEqual(history);
    expect(EventList.parse(events)).toStrictEqual(events);
    expect(reader.entriesChangedAfter(s, 0)).toEqual(page.entries);
    for (const model of [page, usage, turns, history, events])
      expect(undefinedKeys(model)).toEqual([]);

    // A few facts the row mix pins down.
    // The daemon closed c3 when the agent exited: that terminal row clears the reading.
    expect(usage.usage.context).toMatchObject({
      state: "unknown",
      cleared_by: { compaction_id: "c3" },
    });
    expect(
      turns.compactions.map((marker) => [marker.compaction_id, marker.trigger, marker.status]),
    ).toEqual([
      ["c1", "requested", "completed"],
      ["c3", "agent", "cancelled"],
    ]);
    // The reading after c1's terminal snapshot, in its own turn, is its "after" (ADR 0121).
    expect(turns.compactions[0]).toMatchObject({ context_used: 40_000, turn_id: "turn-2" });
    const first = turns.compactions[0];
    expect(first && contextAfterOf(first, turns)).toMatchObject({
      used: 5_000,
      size: 200_000,
      turn_id: "turn-2",
    });
    // c3 was first seen outside any turn.
    expect(turns.compactions[1]?.turn_id).toBe("");
    expect(
      page.entries.some((entry) =>
        entry.message.parts.some(
          (part) =>
            part.type === "tool-read" &&
            part.state === "output-error" &&
            part.errorText === "denied",
        ),
      ),
    ).toBe(true);
  });
});
