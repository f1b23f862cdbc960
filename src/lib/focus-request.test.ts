import { describe, expect, it } from "vitest";
import { requestFocus, takeFocusRequest } from "./focus-request";

describe("focus requests", () => {
  it("when focus is requested for the composer, then it is taken exactly once", () => {
    requestFocus("composer");
    expect(takeFocusRequest("composer")).toBe(true);
    expect(takeFocusRequest("composer")).toBe(false);
  });

  it("when nothing was requested, then nothing is taken", () => {
    expect(takeFocusRequest("composer")).toBe(false);
  });
});
