import { describe, expect, it } from "vitest";
import {
  configOptionsOf,
  modelOfUsageMeta,
  modeStateOf,
  noticeFromMessageChunk,
} from "./agent-session-info";

const text = (value: string) => ({ type: "text" as const, text: value });

describe("adapter notices sent as message chunks", () => {
  it("when Claude marks a chunk informational, then it is a notice with its level, title and detail apart", () => {
    expect(
      noticeFromMessageChunk({
        content: text("**Warning:** Auto mode changes.\nSee the docs."),
        _meta: { claudeCode: { kind: "informational", level: "warning" } },
      }),
    ).toEqual({
      severity: "warning",
      title: "Warning: Auto mode changes.",
      description: "See the docs.",
      source: "message_chunk",
      _meta: { claudeCode: { kind: "informational", level: "warning" } },
    });
  });

  it("when Codex sends a warning line without a message id, then it is a warning notice", () => {
    expect(
      noticeFromMessageChunk({ content: text("Config warning: no bubblewrap.\n\n") }),
    ).toMatchObject({ severity: "warning", title: "Config warning: no bubblewrap." });
  });

  it.each([
    ["a chunk with a message id", { messageId: "msg_1", content: text("Warning: x") }],
    ["plain text", { content: text("Hello there") }],
    ["text that mentions a warning later", { content: text("No Warning: here") }],
    ["an image", { content: { type: "image" as const, data: "AA", mimeType: "image/png" } }],
    ["other _meta", { content: text("**Note** x"), _meta: { claudeCode: { kind: "assistant" } } }],
    [
      "an informational chunk with a message id",
      {
        messageId: "m",
        content: text("x"),
        _meta: { claudeCode: { kind: "informational" } },
      },
    ],
  ])("when the chunk is %s, then it is the model's words", (_name, chunk) => {
    expect(noticeFromMessageChunk(chunk)).toBeUndefined();
  });

  it("when a notice's first line is very long, then the title is cut and the whole text kept", () => {
    const long = `Warning: ${"x".repeat(400)}`;
    const notice = noticeFromMessageChunk({ content: text(long) });
    expect(notice?.title.length).toBe(200);
    expect(notice?.description).toBe(long);
  });
});

describe("session settings from ACP payloads", () => {
  it("when usage _meta names a model, then that is the model; anything else is none", () => {
    expect(modelOfUsageMeta({ "_claude/model": "claude-opus-5-5" })).toBe("claude-opus-5-5");
    expect(modelOfUsageMeta({ model: "gpt" })).toBe("gpt");
    expect(modelOfUsageMeta({ "_claude/model": 5 })).toBeUndefined();
    expect(modelOfUsageMeta(null)).toBeUndefined();
    expect(modelOfUsageMeta(["model"])).toBeUndefined();
  });

  it("when modes come with bad items, then those are skipped and a missing current mode is no state", () => {
    expect(
      modeStateOf({
        currentModeId: "a",
        availableModes: [
          { id: "a", name: "A" },
          { id: 1 },
          "b",
          { id: "c", name: "C", description: "d" },
        ],
      }),
    ).toEqual({
      current_mode_id: "a",
      available_modes: [
        { id: "a", name: "A" },
        { id: "c", name: "C", description: "d" },
      ],
    });
    expect(modeStateOf({ availableModes: [] })).toBeUndefined();
    expect(modeStateOf("x")).toBeUndefined();
  });

  it("when config options come in ACP's shapes, then they read in CompozyOS's names, grouped values flattened, bad items skipped", () => {
    expect(
      configOptionsOf([
        {
          id: "model",
          name: "Model",
          category: "model",
          type: "select",
          currentValue: "a",
          options: [
            { value: "a", name: "A" },
            { group: "g", name: "Group", options: [{ value: "b", name: "B", description: "bee" }] },
            { value: 3 },
          ],
        },
        { id: "fast", name: "Fast", type: "boolean", currentValue: false },
        { id: 7, name: "bad" },
        null,
      ]),
    ).toEqual([
      {
        id: "model",
        label: "Model",
        kind: "select",
        category: "model",
        current: "a",
        values: [
          { value: "a", label: "A" },
          { value: "b", label: "B", description: "bee", group: "Group" },
        ],
      },
      { id: "fast", label: "Fast", kind: "boolean", current: "false" },
    ]);
    expect(configOptionsOf({})).toEqual([]);
  });
});
