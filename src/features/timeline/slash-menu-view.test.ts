import { describe, expect, it } from "vitest";
import {
  inputHintOf,
  MENU_LIMIT,
  matchCommands,
  menuCommandsOf,
  pickedDraft,
  slashQuery,
} from "./slash-menu-view";

const catalog = menuCommandsOf([
  {
    canonical_token: "/compact",
    description: "Clear conversation history but keep a summary",
    input_hint: "<optional custom summarization instructions>",
    available: true,
  },
  { canonical_token: "/context", description: "Show current context usage", available: true },
  {
    canonical_token: "/review",
    description: "Review a pull request",
    available: false,
    unavailable_reason: "needs gh",
  },
  {
    canonical_token: "/init",
    description: "Initialize a new CLAUDE.md with codebase documentation",
  },
]);

describe("menuCommandsOf", () => {
  it("when the catalog has CompozyOS descriptors, then each becomes a command with its hint and availability", () => {
    expect(catalog.map((command) => command.token)).toEqual([
      "/compact",
      "/context",
      "/review",
      "/init",
    ]);
    expect(catalog[0]?.hint).toBe("<optional custom summarization instructions>");
    expect(catalog[2]).toMatchObject({ available: false, unavailableReason: "needs gh" });
  });

  it("when descriptors are hostile (no token, spaces, duplicates, non-strings), then they are skipped", () => {
    const commands = menuCommandsOf([
      {},
      { canonical_token: 5 },
      { canonical_token: "compact" },
      { canonical_token: "/two words" },
      { canonical_token: "/ok", description: 7 },
      { canonical_token: "/ok" },
      { display_name: "/named" },
    ]);
    expect(commands.map((command) => [command.token, command.description])).toEqual([
      ["/ok", ""],
      ["/named", ""],
    ]);
  });
});

describe("slashQuery", () => {
  it("when the draft is a leading slash word, then the word is the query; else there is none", () => {
    expect(slashQuery("/")).toBe("");
    expect(slashQuery("/co")).toBe("co");
    expect(slashQuery("/compact now")).toBeUndefined();
    expect(slashQuery("hello /co")).toBeUndefined();
    expect(slashQuery(" /co")).toBeUndefined();
    expect(slashQuery("/co\n")).toBeUndefined();
  });
});

describe("matchCommands", () => {
  it("when filtering, then name prefixes come first, then names or descriptions containing it", () => {
    expect(matchCommands(catalog, "co").map((command) => command.token)).toEqual([
      "/compact",
      "/context",
      "/init",
    ]);
    expect(matchCommands(catalog, "CLAUDE").map((command) => command.token)).toEqual(["/init"]);
    expect(matchCommands(catalog, "").length).toBe(4);
    expect(matchCommands(catalog, "zzz")).toEqual([]);
  });

  it("when a catalog is huge, then the menu lists at most MENU_LIMIT", () => {
    const many = menuCommandsOf(
      Array.from({ length: 120 }, (_, i) => ({ canonical_token: `/c${i}` })),
    );
    expect(matchCommands(many, "c")).toHaveLength(MENU_LIMIT);
  });
});

describe("pickedDraft and inputHintOf", () => {
  it("when a command takes input, then picking leaves a space and the hint shows while typing", () => {
    const compact = catalog[0];
    const context = catalog[1];
    if (!compact || !context) throw new Error("fixture");
    expect(pickedDraft(compact)).toBe("/compact ");
    expect(pickedDraft(context)).toBe("/context");
    expect(inputHintOf("/compact keep the API notes", catalog)).toBe(
      "/compact <optional custom summarization instructions>",
    );
    expect(inputHintOf("/context ", catalog)).toBeUndefined();
  });
});
