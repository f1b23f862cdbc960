import { describe, expect, it } from "vitest";
import { headerTitle } from "./session-header-view";

describe("the session header's title", () => {
  it("when the session has a name, then that is the title", () => {
    expect(headerTitle({ id: "ses_abcdef123456", name: "  Refactor " })).toBe("Refactor");
  });

  it("when it has none, then a short form of its id", () => {
    expect(headerTitle({ id: "ses_abcdef123456" })).toBe("Session 123456");
  });
});
