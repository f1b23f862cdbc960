import { describe, expect, it } from "vitest";
import { parseAcpUpdate, parseAcpUpdateWithZod } from "./acp-update";

describe("parseAcpUpdate", () => {
  it.each([
    [
      "a message chunk",
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } },
    ],
    [
      "a chunk with a message id",
      {
        sessionUpdate: "agent_thought_chunk",
        messageId: "m1",
        content: { type: "text", text: "…" },
      },
    ],
    [
      "a tool call",
      {
        sessionUpdate: "tool_call",
        toolCallId: "t1",
        title: "Read",
        kind: "read",
        status: "pending",
      },
    ],
    [
      "a tool call update",
      { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" },
    ],
    [
      "a usage update",
      {
        sessionUpdate: "usage_update",
        used: 10,
        size: 100,
        cost: { amount: 0.1, currency: "USD" },
      },
    ],
    [
      "a compaction update with a vendor status",
      { sessionUpdate: "compaction_update", compactionId: "c", status: "_paused" },
    ],
    [
      "a compaction chunk",
      {
        sessionUpdate: "compaction_summary_chunk",
        compactionId: "c",
        content: { type: "image", data: "AA", mimeType: "image/png" },
      },
    ],
    [
      "a plan",
      { sessionUpdate: "plan", entries: [{ content: "x", priority: "high", status: "pending" }] },
    ],
    ["a mode change", { sessionUpdate: "current_mode_update", currentModeId: "plan" }],
    [
      "a user message chunk",
      { sessionUpdate: "user_message_chunk", content: { type: "text", text: "x" } },
    ],
    ["a title", { sessionUpdate: "session_info_update", title: "Fix the build" }],
    ["a status-only session info", { sessionUpdate: "session_info_update", _meta: { a: 1 } }],
    ["a config option update", { sessionUpdate: "config_option_update", configOptions: [] }],
    ["a notice", { sessionUpdate: "notice", severity: "warning", title: "Rate limited" }],
    ["a notice with a future severity", { sessionUpdate: "notice", severity: "_x", title: "T" }],
  ])("when the frame is %s, then it is modelled", (_name, update) => {
    expect(parseAcpUpdate(update).kind).toBe("modelled");
  });

  it.each([
    ["a vendor update", { sessionUpdate: "_acme/heartbeat", beat: 3 }],
    ["a future update", { sessionUpdate: "tool_call_progress", toolCallId: "t" }],
  ])("when the frame is %s, then it is valid but not modelled", (_name, update) => {
    expect(parseAcpUpdate(update)).toEqual({ kind: "unmodelled", raw: update });
  });

  it.each([
    ["not an object", "hello"],
    ["without a discriminator", { used: 1 }],
    [
      "a compaction update without compactionId",
      { sessionUpdate: "compaction_update", status: "completed" },
    ],
    [
      "a compaction update without status",
      { sessionUpdate: "compaction_update", compactionId: "c" },
    ],
    [
      "a compaction update with a string summary",
      {
        sessionUpdate: "compaction_update",
        compactionId: "c",
        status: "completed",
        summary: "text",
      },
    ],
    [
      "a compaction update with a numeric error",
      { sessionUpdate: "compaction_update", compactionId: "c", status: "failed", error: 5 },
    ],
    ["a chunk without content", { sessionUpdate: "compaction_summary_chunk", compactionId: "c" }],
    [
      "a usage update with a negative reading",
      { sessionUpdate: "usage_update", used: -1, size: 100 },
    ],
    ["a mode change without a mode", { sessionUpdate: "current_mode_update" }],
    ["a notice without a title", { sessionUpdate: "notice", severity: "info", title: "" }],
    ["a title that is a number", { sessionUpdate: "session_info_update", title: 5 }],
    [
      "config options that are not a list",
      { sessionUpdate: "config_option_update", configOptions: {} },
    ],
  ])("when the frame is %s, then it is invalid", (_name, update) => {
    const parsed = parseAcpUpdate(update);
    expect(parsed.kind).toBe("invalid");
    if (parsed.kind === "invalid") expect(parsed.error.length).toBeGreaterThan(0);
  });
});

describe("parseAcpUpdate's hand check of plain text chunks", () => {
  const base = { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } };
  it.each([
    ["a plain chunk", base],
    ["a thought", { ...base, sessionUpdate: "agent_thought_chunk" }],
    ["a message id", { ...base, messageId: "m1" }],
    ["a null message id", { ...base, messageId: null }],
    ["an extension key", { ...base, vendorField: { x: 1 } }],
    ["unicode text", { ...base, content: { type: "text", text: "日本 🚀 \u2028" } }],
    ["empty text", { ...base, content: { type: "text", text: "" } }],
    ["a numeric message id", { ...base, messageId: 5 }],
    ["_meta", { ...base, _meta: { a: 1 } }],
    ["a bad _meta", { ...base, _meta: "x" }],
    ["a null _meta", { ...base, _meta: null }],
    ["an undefined message id", { ...base, messageId: undefined }],
    [
      "keys in another order",
      {
        vendor: 1,
        messageId: "m",
        content: { type: "text", text: "a" },
        sessionUpdate: "agent_message_chunk",
      },
    ],
    ["a number as text", { ...base, content: { type: "text", text: 5 } }],
    ["an extra content key", { ...base, content: { type: "text", text: "a", annotations: {} } }],
    ["content keys in another order", { ...base, content: { text: "a", type: "text" } }],
    ["an image block", { ...base, content: { type: "image", data: "AA", mimeType: "image/png" } }],
    ["no content", { sessionUpdate: "agent_message_chunk" }],
    ["content as an array", { ...base, content: [] }],
    ["a user chunk", { ...base, sessionUpdate: "user_message_chunk" }],
  ])("when %s arrives, then the result equals the zod check's", (_name, update) => {
    const fast = parseAcpUpdate(update);
    const full = parseAcpUpdateWithZod(update);
    expect(fast).toEqual(full);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(full));
  });
});
